package plugin

import "testing"

// TestManifestUnknownKeySuggests: an unknown key in a plugin manifest, at
// the top or inside entry: or a hook, gets the did-you-mean a story's
// unknown key gets, from the keys of the mapping it was written in; a key
// near none of them gets none.
func TestManifestUnknownKeySuggests(t *testing.T) {
	cases := map[string]string{
		"entry:\n  comand: x\n":                     "m.yaml: line 4: unknown key \"comand\"; did you mean `command`?",
		"entry: {command: x}\nhoks: []\n":           "m.yaml: line 4: unknown key \"hoks\"; did you mean `hooks`?",
		"entry: {command: x}\nhooks: [{pont: x}]\n": "m.yaml: line 4: unknown key \"pont\"; did you mean `point`?",
		"entry: {command: x}\ncolour: red\n":        `m.yaml: line 4: unknown key "colour"`,
	}
	for body, want := range cases {
		_, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\n"+body))
		if err == nil || err.Error() != want {
			t.Errorf("%q: err = %v, want %s", body, err, want)
		}
	}
}
