package fetch

import (
	"strings"
	"testing"
)

// TestPinRepeatedKeyNamesBothPlaces: a pin file giving a key twice
// (written twice, through an alias key, beside a merge key that brings
// it) is refused at the later key's line and column, naming the other and
// the fix; yaml.v3 named the written repeat by line only and read the
// others, one of the two values lost without a word.
func TestPinRepeatedKeyNamesBothPlaces(t *testing.T) {
	entry := "models:\n  m:\n    %s\n    url: http://x/m\n"
	cases := map[string]string{
		"id: m\n    id: n":       `:4:5: mapping key "id" already defined at line 3, column 5; the whole pin file is refused: keep one of them`,
		"&k id: m\n    *k : n":   `:4:5: key "id" is given twice in one mapping through an alias (*k), the first at line 3, column 5; the whole pin file is refused (duplicate key "id"): keep one of them`,
		"<<: {id: m}\n    id: n": `:4:5: key "id" is written beside a merge key (<<:) that brings it too, the other at line 3, column 10; the whole pin file is refused (duplicate key "id"): keep one of them`,
	}
	for keys, want := range cases {
		path := writeOverlay(t, strings.Replace(entry, "%s", keys, 1))
		if _, err := LoadPins(path); err == nil || !strings.Contains(err.Error(), path+want) {
			t.Errorf("%q: err = %v, want %s%s", keys, err, path, want)
		}
	}
}
