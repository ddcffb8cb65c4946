package lint

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"kitsoki/internal/human"
	"kitsoki/internal/safefile"
)

// maxStoryReads bounds the bytes of the distinct files one check reads
// besides the story's YAML (templates, prompt files, schemas, Starlark
// scripts): a repository of many files just under safefile.Story's cap
// (they compress to little in git) would otherwise be held whole, each
// several times over as the rules scan it.
const maxStoryReads = 256 << 20

// errStoryReads is the refusal of a read past maxStoryReads.
var errStoryReads = fmt.Errorf("%w: the files this story's checks read (templates, prompts, schemas, scripts) pass %s together, where no more is read; name fewer or smaller files", safefile.ErrTooLarge, human.Size(maxStoryReads))

// heldFile is a file a check read: its stat and its bytes.
type heldFile struct {
	fi fs.FileInfo
	b  []byte
}

// readOnce reads abs through the story's root. A file read before under
// another name (a link to it) is not read again: its bytes are the ones
// held, so many links to one large file cost one read. Past
// maxStoryReads nothing more is read (errStoryReads).
func (c *checker) readOnce(abs string) ([]byte, error) {
	root := c.st.FileRoot()
	fi, err := root.Stat(abs)
	if err == nil && fi.Mode().IsRegular() {
		for _, h := range c.held[fi.Size()] {
			if os.SameFile(h.fi, fi) {
				return h.b, nil
			}
		}
		if c.heldBytes+fi.Size() > cmp.Or(c.maxReads, maxStoryReads) {
			return nil, &fs.PathError{Op: "read", Path: abs, Err: errStoryReads}
		}
	}
	b, err := root.ReadFile(abs, safefile.Story)
	if err != nil || fi == nil {
		return b, err
	}
	if c.held == nil {
		c.held = map[int64][]heldFile{}
	}
	c.held[fi.Size()] = append(c.held[fi.Size()], heldFile{fi, b})
	c.heldBytes += int64(len(b))
	return b, nil
}

// overReads reports whether err is readOnce's refusal past maxStoryReads.
func overReads(err error) bool { return errors.Is(err, errStoryReads) }
