//go:build !unix

package safefile

// readFile is ReadFile through Open.
func readFile(path string, limit int64) ([]byte, error) {
	f, fi, err := open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi.Size(), path, limit)
}
