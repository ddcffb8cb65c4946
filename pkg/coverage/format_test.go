package coverage

import "testing"

// TestFormatFor: --cover-format wins; else the file name's extension
// decides, standard output gets JSON and any other name LCOV.
func TestFormatFor(t *testing.T) {
	for _, c := range []struct{ name, format, want string }{
		{"c.lcov", "json", "json"},
		{"c.JSON", "", "json"},
		{"c.xml", "", "cobertura"},
		{"-", "", "json"},
		{"-", "lcov", "lcov"},
		{"coverage.info", "", "lcov"},
		{"coverage", "", "lcov"},
	} {
		if got := FormatFor(c.name, c.format); got != c.want {
			t.Errorf("FormatFor(%q, %q) = %q, want %q", c.name, c.format, got, c.want)
		}
	}
	for f, ok := range map[string]bool{"": true, "lcov": true, "cobertura": true, "json": true, "html": false, "LCOV": false} {
		if KnownFormat(f) != ok {
			t.Errorf("KnownFormat(%q) = %v", f, !ok)
		}
	}
}
