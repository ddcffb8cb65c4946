package plugin

import "testing"

// TestManifestRepeatedKeyNamesBothPlaces: a plugin manifest giving a key
// twice (written twice, through an alias key, beside a merge key that
// brings it) is refused at the later key's line and column, naming the
// other and the fix; yaml.v3 named the written repeat by line only and read
// the others, one of the two values lost without a word.
func TestManifestRepeatedKeyNamesBothPlaces(t *testing.T) {
	cases := map[string]string{
		"entry:\n  command: x\n  command: y\n":       `m.yaml:5:3: mapping key "command" already defined at line 4, column 3; the whole plugin manifest is refused: keep one of them`,
		"entry:\n  &k command: x\n  *k : y\n":        `m.yaml:5:3: key "command" is given twice in one mapping through an alias (*k), the first at line 4, column 3; the whole plugin manifest is refused (duplicate key "command"): keep one of them`,
		"entry:\n  <<: {command: x}\n  command: y\n": `m.yaml:5:3: key "command" is written beside a merge key (<<:) that brings it too, the other at line 4, column 8; the whole plugin manifest is refused (duplicate key "command"): keep one of them`,
	}
	for body, want := range cases {
		_, err := parseManifest("m.yaml", []byte("id: p\nhosts: [host.git]\n"+body))
		if err == nil || err.Error() != want {
			t.Errorf("%q: err = %v, want %s", body, err, want)
		}
	}
}
