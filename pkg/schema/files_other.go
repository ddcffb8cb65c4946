//go:build !linux

package schema

// dirFD has no fast path here: every read goes through the os.Root.
type dirFD struct{}

var noDirFD = dirFD{}

func (d *dirFD) close() {}

func (d *dirFD) readPlain(dir, rel string, limit int64) ([]byte, bool) { return nil, false }
