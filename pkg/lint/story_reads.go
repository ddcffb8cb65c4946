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

// maxStoryReads bounds the bytes of the distinct files one load's checks
// read besides the story's YAML (templates, prompt files, schemas, Starlark
// scripts), the story's, every imported child's and the phase-expanded
// copy's together: a repository of many files just under safefile.Story's
// cap (they compress to little in git) would otherwise be held whole, each
// several times over as the rules scan it, and a story importing many
// children, each reading up to the bound, would hold the bound once per
// child.
const maxStoryReads = 256 << 20

// errStoryReads is the refusal of a read past maxStoryReads.
var errStoryReads = fmt.Errorf("%w: the files this story's checks read (templates, prompts, schemas, scripts; its imported children's too) pass %s together, where no more is read; name fewer or smaller files", safefile.ErrTooLarge, human.Size(maxStoryReads))

// heldFile is a file a check read: its stat and its bytes.
type heldFile struct {
	fi fs.FileInfo
	b  []byte
}

// heldReads is what one load's checks have read, shared by the checker
// of the story, of each imported child and of the phase-expanded copy
// (Check makes one per load): each file held once, by size, and the bytes
// held counted against one bound.
type heldReads struct {
	bySize map[int64][]heldFile
	bytes  int64
	max    int64 // 0: maxStoryReads (tests lower it)
}

// readOnce reads abs through the story's root. A file read before under
// another name (a link to it), by this story or another of the load, is
// not read again: its bytes are the ones held, so many links to one large
// file cost one read. Past the load's bound nothing more is read
// (errStoryReads), naming the file refused.
func (c *checker) readOnce(abs string) ([]byte, error) {
	if c.held == nil {
		c.held = &heldReads{}
	}
	h := c.held
	root := c.st.FileRoot()
	fi, err := root.Stat(abs)
	if err == nil && fi.Mode().IsRegular() {
		for _, f := range h.bySize[fi.Size()] {
			if os.SameFile(f.fi, fi) {
				return f.b, nil
			}
		}
		if h.bytes+fi.Size() > cmp.Or(h.max, maxStoryReads) {
			return nil, &fs.PathError{Op: "read", Path: abs, Err: errStoryReads}
		}
	}
	b, err := root.ReadFile(abs, safefile.Story)
	if err != nil || fi == nil {
		return b, err
	}
	if h.bySize == nil {
		h.bySize = map[int64][]heldFile{}
	}
	h.bySize[fi.Size()] = append(h.bySize[fi.Size()], heldFile{fi, b})
	h.bytes += int64(len(b))
	return b, nil
}

// overReads reports whether err is readOnce's refusal past maxStoryReads.
func overReads(err error) bool { return errors.Is(err, errStoryReads) }
