package localllm

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
	"kitsoki/pkg/agent"
)

// FuzzParseChatResponse: any body either parses to a non-empty content or
// fails with an error; it never panics, and stripping a fence from the
// content never grows it.
func FuzzParseChatResponse(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"content":"{\"a\":1}"}}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`,
		`{"choices":[{"message":{"content":"` + "```json\\n{}\\n```" + `"}}]}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"hi"}]}}]}`,
		`{"choices":[{"message":{"content":"x","tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}"}},{"id":"2","name":"g","arguments":{"k":1}}]}}]}`,
		`{"choices":[]}`, `{"choices":[{"message":{"content":null}}]}`, `{"choices":[{"message":{"content":7}}]}`,
		`{"choices":{}}`, `{"choices":[{"message":{"content":[{"text":1}]}}]}`,
		`not json`, ``, `null`, `[]`, `{"choices":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		cr, content, err := parseChatResponse(body)
		if err != nil {
			if cr != nil || content != "" {
				t.Fatal("error with a result")
			}
			if gotype.Named(err.Error(), body) != "" {
				t.Fatalf("%q: %v names a Go type", body, err)
			}
			return
		}
		if strings.TrimSpace(content) == "" {
			t.Fatal("empty content accepted")
		}
		if s := agent.StripCodeFence(content); len(s) > len(content) {
			t.Fatal("stripCodeFence grew its input")
		}
		tr := chatTranscript("m", "p", content, cr)
		if len(tr.Events) < 3 {
			t.Fatalf("transcript has %d events", len(tr.Events))
		}
	})
}

// FuzzParseEmbeddings: never panics; success means exactly n ordered,
// non-empty vectors.
func FuzzParseEmbeddings(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":1,"embedding":[0.1]},{"index":0,"embedding":[0.2,0.3]}]}`), 2)
	f.Add([]byte(`{"data":[{"index":0,"embedding":[]}]}`), 1)
	f.Add([]byte(`{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`), 2)
	f.Add([]byte(`garbage`), 1)
	f.Add([]byte(`{"data":[{"index":0,"embedding":"x"}]}`), 1)
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		vecs, err := parseEmbeddings(body, n)
		if err != nil {
			if gotype.Named(err.Error(), body) != "" {
				t.Fatalf("%q: %v names a Go type", body, err)
			}
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors, want %d", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) == 0 {
				t.Fatal("empty vector accepted")
			}
		}
	})
}
