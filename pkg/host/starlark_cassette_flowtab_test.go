package host

import (
	"strings"
	"testing"
)

// A tab before a key of a flow mapping refuses an http cassette at its
// place, as upstream's parser does (probe /tmp/hunt97/tab/http1: `parse
// starlark http cassette: tab character cannot use as a map key directly`).
func TestHTTPCassetteFlowKeyTab(t *testing.T) {
	_, err := ParseHTTPCassette("h.yaml", []byte("kind: http_cassette\nexchanges:\n  - match: {method: GET,\turl: u}\n    response: {status: 200}\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "h.yaml:3:26: a tab before this key") {
		t.Errorf("got %v", err)
	}
	if _, err := ParseHTTPCassette("h.yaml", []byte("kind: http_cassette\nexchanges:\n  - match: {method: GET,\n\turl: u}\n    response: {status: 200}\n"), nil); err != nil {
		t.Errorf("a tab after a line break: %v", err)
	}
}
