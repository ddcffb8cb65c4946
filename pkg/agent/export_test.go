package agent

import "path/filepath"

// ParseCassette parses cassette bytes. name is the file path: it appears in
// errors and roots !include (which may only read inside its directory).
func ParseCassette(name string, data []byte) (*Cassette, error) {
	return parseCassette(name, filepath.Dir(name), data)
}
