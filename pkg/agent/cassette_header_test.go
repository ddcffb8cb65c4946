package agent

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestCassetteHeaderCheck(t *testing.T) {
	cases := []struct {
		src, want string
	}{
		{"kind: host_cassette", ""},
		{"kind: host_cassette\nrecord_mode: none", ""},
		{"kind: host_cassette\nrecord_mode: new_episodes", ""},
		{"kind: cassette", `cassette: "c.yaml": kind must be "host_cassette", got "cassette"`},
		{"kind: host_cassette\nrecord_mode: all", `cassette: "c.yaml": record_mode "all" is not supported; valid values are "none" or "new_episodes"`},
		{"kind: host_cassette\nphase_from: '('", `cassette: "c.yaml": phase_from regex: error parsing regexp`},
	}
	for _, c := range cases {
		var doc rawCassette
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatal(err)
		}
		_, err := doc.checkHeader("c.yaml", nil)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
	h := rawCassette{Kind: cassetteKind, PhaseFrom: `^(\w+)\.`}
	re, err := h.checkHeader("c.yaml", nil)
	if err != nil || re == nil || re.FindStringSubmatch("plan.x")[1] != "plan" {
		t.Fatalf("phase_from: %v %v", re, err)
	}
}

func TestCassetteHeaderMessages(t *testing.T) {
	if got := cassetteYAMLError("c.yaml", errors.New("yaml: line 2: bad")).Error(); got != `cassette: "c.yaml": line 2: bad` {
		t.Errorf("YAMLError: %s", got)
	}
	// what yaml.v3 refuses to decode is placed by the Walker (cassetteDecodeError)
	for src, want := range map[string]string{
		"kind: [host_cassette]\n":                                     "cassette: c.yaml:1:7: kind: expected a string, got a list",
		"kind: host_cassette\nmatch_on: verb\n":                       "cassette: c.yaml:2:11: match_on: expected a list, got \"verb\" (write [verb])",
		"kind: host_cassette\nepisodes:\n  - id: {a: 1}\n":            "cassette: c.yaml:3:9: episodes[0].id: expected a string, got a mapping",
		"kind: host_cassette\nepisodes:\n  - match: [x]\n":            "cassette: c.yaml:3:12: episodes[0].match: expected a mapping, got a list",
		"kind: host_cassette\nepisodes:\n  - id: !!int x\n":           "cassette: c.yaml:3:9: episodes[0].id: expected a string, got \"x\"",
		"kind: host_cassette\nepisodes:\n  - match: {n: !!int x}\n":   "cassette: c.yaml:3:16: episodes[0].match.n: \"x\" is not an integer: drop the tag !!int",
		"- kind: host_cassette\n":                                     "cassette: c.yaml:1:1: top level: expected a mapping, got a list",
		"kind: host_cassette\nepisodes:\n  - response: {data: [1]}\n": "cassette: c.yaml:3:22: episodes[0].response.data: expected a mapping, got a list",
	} {
		if _, err := ParseCassette("c.yaml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v\nwant %s", src, err, want)
		}
	}
	if _, err := ParseCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: a\n  -\n")); err == nil || err.Error() != `cassette: "c.yaml": episode 1 is empty` {
		t.Errorf("empty episode: %v", err)
	}
}
