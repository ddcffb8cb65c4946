package plugin

import "testing"

// TestManifestUnknownKeySuggests: an unknown key in a plugin manifest, at
// the top or inside entry: or a hook, is named at its line and column with
// the place it was written in, and gets the did-you-mean a story's unknown
// key gets (the Walker's), from the keys of that mapping; a key near none
// of them lists them.
func TestManifestUnknownKeySuggests(t *testing.T) {
	cases := map[string]string{
		"entry:\n  comand: x\n":                     "m.yaml:4:3: entry: unknown key \"comand\"; did you mean `command`?",
		"entry: {command: x}\nhoks: []\n":           "m.yaml:4:1: top level: unknown key \"hoks\"; did you mean `hooks`?",
		"entry: {command: x}\nhooks: [{pont: x}]\n": "m.yaml:4:10: hooks[0]: unknown key \"pont\"; did you mean `point`?",
		"entry: {command: x}\ncolour: red\n":        "m.yaml:4:1: top level: unknown key \"colour\"; expected one of `entry`, `hooks`, `hosts`, `id`, `provides`, `requires`, `summary`, `version`",
	}
	for body, want := range cases {
		_, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\n"+body))
		if err == nil || err.Error() != want {
			t.Errorf("%q: err = %v, want %s", body, err, want)
		}
	}
}

// TestManifestTypeErrorsPlaced: a value of the wrong YAML type is named at
// its line and column with its place and the type expected, every one of
// them on one line; an integer reads as yaml.v3 reads one into a Go int
// (no quoted text), a list drops a null item as yaml.v3 does. Before,
// yaml.v3's error text was rewritten, by line only.
func TestManifestTypeErrorsPlaced(t *testing.T) {
	cases := map[string]string{
		"entry: {command: x, timeout_ms: \"5\"}\n": `m.yaml:3:33: entry.timeout_ms: expected an integer, got "5"`,
		"entry: {command: x, args: x}\n":           `m.yaml:3:27: entry.args: expected a list, got "x" (write [x])`,
		"entry: {command: x}\nhooks: [x]\n":        `m.yaml:4:9: hooks[0]: expected a mapping, got a string`,
		"entry: x\nprovides: {a: b}\n":             `m.yaml:3:8: entry: expected a mapping, got a string; m.yaml:4:11: provides: expected a list, got a mapping`,
	}
	for body, want := range cases {
		_, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\n"+body))
		if err == nil || err.Error() != want {
			t.Errorf("%q: err = %v, want %s", body, err, want)
		}
	}
	m, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\nentry: {command: x, timeout_ms: 2.9, args: [1, true, ~]}\n"))
	if err != nil || m.Entry.TimeoutMS != 2 || len(m.Entry.Args) != 2 || m.Entry.Args[0] != "1" || m.Entry.Args[1] != "true" {
		t.Errorf("yaml.v3's reading: %+v, %v", m, err)
	}
	if _, err := parseManifest("m.yaml", []byte("# nothing\n")); err == nil || err.Error() != "m.yaml: the manifest is empty; give it id, entry.command and hooks or hosts" {
		t.Errorf("empty: %v", err)
	}
}
