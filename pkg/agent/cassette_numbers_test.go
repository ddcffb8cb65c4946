package agent

import "testing"

// A cassette's response data reads a number written without a decimal
// point as its text, as the existing engine does (and as a story's own
// values read: internal/yamlnode.PointlessFloat).
func TestCassetteDataPointlessFloatsAreText(t *testing.T) {
	c, err := ParseCassette("c.yaml", []byte("kind: host_cassette\nepisodes:\n  - id: e\n    response:\n      data: {e: 1e3, l: 08, p: 2.5e3, n: [1E+3, 7]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Episodes[0].Response.Data
	if d["e"] != "1e3" || d["l"] != "08" || d["p"] != 2500.0 {
		t.Errorf("data = %#v", d)
	}
	if n, _ := d["n"].([]any); len(n) != 2 || n[0] != "1E+3" || n[1] != 7 {
		t.Errorf("data.n = %#v", d["n"])
	}
}
