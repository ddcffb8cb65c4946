package localllm

import (
	"reflect"
	"strings"
	"testing"

	"kitsoki/internal/jsoncost"
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
		cr, content, err := parseChatResponse(body, 0)
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
		vecs, err := parseEmbeddings(body, n, 0)
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

// FuzzFirstModel: a /v1/models answer is refused only when jsoncost's
// walk puts its decode over the limit, in one line naming its size and no
// Go type; any other gives a trimmed id (or none), the same under the
// default floor and with blanks around the document; it never panics.
func FuzzFirstModel(f *testing.F) {
	for _, s := range []string{
		`{"data":[{"id":"a"}]}`, `{"data":[{"id":" "},{"id":"b"}]}`, `{"models":[{"name":"n","model":"m"}]}`,
		`{"models":[{"name":"n"}]}`, `{"DATA":[{"ID":"x"}],"data":[]}`, `{"data":[{"id":5}]}`, `{"data":` + empties(2000) + `}`,
		`not json`, ``, `null`, `[]`, `{"data":null,"models":[{}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := firstModel(raw, 1<<10)
		if err != nil {
			// jsoncost's FuzzEstimate holds OverFor to the walk
			if limit, over := jsoncost.OverFor(raw, reflect.TypeFor[modelList](), 1<<10); !over {
				t.Fatalf("%q refused (%v) under its limit %d", raw, err, limit)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "of JSON that would take over") || gotype.Named(msg, raw) != "" {
				t.Fatalf("%q: %v", raw, err)
			}
			return
		}
		if got != strings.TrimSpace(got) {
			t.Fatalf("%q: untrimmed %q", raw, got)
		}
		if again, err := firstModel(raw, 0); err != nil || again != got {
			t.Fatalf("%q: %q under the default floor, %q under 1 KiB (%v)", raw, again, got, err)
		}
		if spaced, err := firstModel(append(append([]byte(" \n"), raw...), " \t"...), 1<<10); err == nil && spaced != got {
			t.Fatalf("%q: %q with blanks around it, %q without", raw, spaced, got)
		}
	})
}
