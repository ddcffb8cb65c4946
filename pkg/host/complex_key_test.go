package host

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
	"kitsoki/pkg/host/scriptiface"
)

// A mapping or a list used as a key in a file a host built-in reads is
// refused at its place, never with yaml.v3's "invalid map key:
// []interface {}{...}" or a recovered "runtime error: hash of unhashable
// type" (through a merge).
func TestComplexKeyRefused(t *testing.T) {
	for _, c := range []struct {
		name, want string
		parse      func() error
	}{
		{"http cassette, through a merge", "c.yaml:2:31: a mapping or a list is used as a key; a key in this http cassette", func() error {
			_, err := ParseHTTPCassette("c.yaml", []byte("kind: http_cassette\nexchanges: [{}, {<<: , e: {}, {}: , [L, {d}]: }]\n"), nil)
			return err
		}},
		{"http cassette body", "c.yaml:3:50: a mapping or a list is used as a key", func() error {
			_, err := ParseHTTPCassette("c.yaml", []byte("kind: http_cassette\nexchanges:\n- request: {method: GET, url: 'http://x', body: {[x]: 1}}\n  response: {status: 200}\n"), nil)
			return err
		}},
		{"inspect cassette", "c.yaml:2:5: a mapping or a list is used as a key; a key in this inspect cassette", func() error {
			_, err := ParseInspectCassette("c.yaml", []byte("kind: inspect_cassette\nx: {[a]: 1}\n"))
			return err
		}},
		{"ticket front matter", "bug file: front matter line 1, column 9: a mapping or a list is used as a key; a key in this front matter", func() error {
			_, err := parseTicket([]byte("---\ntitle: {[x]: 1}\n---\nbody\n"))
			return err
		}},
		{"script sidecar default", "s.yaml:2:31: a mapping or a list is used as a key; a key in this sidecar", func() error {
			_, err := scriptiface.Parse("s.yaml", []byte("inputs:\n  a: {type: string, default: {[x]: 1}}\n"))
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.parse()
			if err == nil || !strings.Contains(err.Error(), c.want) || gotype.Named(err.Error(), nil) != "" {
				t.Fatalf("err = %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}
