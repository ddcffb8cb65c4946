package cassettehead

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		src, replayOnly, want string
	}{
		{"kind: host_cassette", "", ""},
		{"kind: host_cassette\nrecord_mode: none", "", ""},
		{"kind: host_cassette\nrecord_mode: new_episodes", "", ""},
		{"kind: host_cassette\nrecord_mode: new_episodes", "replays only", `cassette: "c.yaml": record_mode "new_episodes": replays only`},
		{"kind: cassette", "", `cassette: "c.yaml": kind must be "host_cassette", got "cassette"`},
		{"kind: host_cassette\nrecord_mode: all", "", `cassette: "c.yaml": record_mode "all" is not supported; valid values are "none" or "new_episodes"`},
		{"kind: host_cassette\nphase_from: '('", "", `cassette: "c.yaml": phase_from regex: error parsing regexp`},
	}
	for _, c := range cases {
		var doc struct {
			Header `yaml:",inline"`
			Other  string `yaml:"other"`
		}
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatal(err)
		}
		_, err := doc.Check("c.yaml", c.replayOnly)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
	h := Header{Kind: kindHostCassette, PhaseFrom: `^(\w+)\.`}
	re, err := h.Check("c.yaml", "")
	if err != nil || re == nil || re.FindStringSubmatch("plan.x")[1] != "plan" {
		t.Fatalf("phase_from: %v %v", re, err)
	}
}

func TestMessages(t *testing.T) {
	if got := YAMLError("c.yaml", errors.New("yaml: line 2: bad")).Error(); got != `cassette: "c.yaml": line 2: bad` {
		t.Errorf("YAMLError: %s", got)
	}
	if got := EmptyEpisode("c.yaml", 3).Error(); got != `cassette: "c.yaml": episode 3 is empty` {
		t.Errorf("EmptyEpisode: %s", got)
	}
}
