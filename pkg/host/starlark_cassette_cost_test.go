package host

import (
	"strings"
	"testing"
)

// A script builds the URL (megabytes, if it likes) and the cassette holds
// the pattern, and a match cannot be interrupted: a url_pattern whose worst
// case against the URL passes recost.MaxSteps is an error naming the
// exchange's line, before it runs (2,400 instructions against a 500 KB URL
// took some 30 s; 600,000 against 400 KB, hours).
func TestCostlyURLPatternIsRefusedBeforeMatching(t *testing.T) {
	pattern := strings.Repeat("(?:x?){100}", 12) + "z"
	c, err := ParseHTTPCassette("c.http.yaml", []byte("kind: http_cassette\nexchanges:\n  - match: {method: GET, url: \"https://a/\"}\n    response: {status: 200}\n  - match:\n      method: GET\n      url_pattern: \""+pattern+"\"\n    response: {status: 200}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Answer("GET", "https://a/"+strings.Repeat("x", 500_000))
	if err == nil || !strings.Contains(err.Error(), "url_pattern of the exchange at line 5") || !strings.Contains(err.Error(), "shorten the pattern or match less text") {
		t.Fatalf("err = %.300v, want the pattern refused at line 5", err)
	}
	// a short URL is matched as before, and the exact URL first
	if ex, err := c.Answer("GET", "https://a/"); err != nil || ex.Line != 3 {
		t.Fatalf("exact URL: %v %v", ex, err)
	}
	if ex, err := c.Answer("GET", "https://a/"+strings.Repeat("x", 1000)+"z"); err != nil || ex.Line != 5 {
		t.Fatalf("short URL: %v %v", ex, err)
	}
}
