package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

func TestCassetteResponseJSON(t *testing.T) {
	for _, c := range []struct{ src, want, err string }{
		{`response_json: '5'`, `5`, ""},
		{`response_json: "1.0"`, `1.0`, ""},
		{`response_json: 'null'`, `null`, ""},
		{`response_json: '"{x"'`, `"{x"`, ""},
		{`response_json: 7`, `7`, ""},
		{`response_json: true`, `true`, ""},
		{`response_json: null`, `null`, ""},
		{`response_json: {a: [1, x]}`, `{"a":[1,"x"]}`, ""},
		{`response_json: 'five'`, "", `is not JSON text; quote the exact submission`},
		{`other: 1`, "", ""},
	} {
		var doc struct {
			R yaml.Node `yaml:"response_json"`
		}
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatal(err)
		}
		got, err := responseJSON("c.yaml", "ep1", &doc.R)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), `episode "ep1"`) {
				t.Errorf("%s: error %v, want %q", c.src, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s %v, want %s", c.src, got, err, c.want)
		}
	}
}

// A long response_json that is not JSON is quoted in the error clipped on
// a character: a cut inside "é" would put a broken byte in the message.
func TestCassetteResponseJSONClipsOnACharacter(t *testing.T) {
	var doc struct {
		R yaml.Node `yaml:"response_json"`
	}
	if err := yaml.Unmarshal([]byte("response_json: a"+strings.Repeat("é", 60)), &doc); err != nil {
		t.Fatal(err)
	}
	_, err := responseJSON("c.yaml", "ep1", &doc.R)
	if err == nil || !strings.Contains(err.Error(), "is not JSON text") {
		t.Fatalf("error %v, want not JSON text", err)
	}
	if msg := err.Error(); strings.Contains(msg, `\x`) || !utf8.ValidString(msg) || !strings.Contains(msg, "left out") {
		t.Errorf("message not clipped on a character: %s", msg)
	}
}
