package coverage

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/engine"
)

//go:embed html.tmpl
var htmlSource string

// htmlTemplates parses the page templates on the first report written,
// not at start-up: every other command links this package.
var htmlTemplates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("coverage").Funcs(template.FuncMap{
		"percent": func(f Figure) string {
			if f.Total == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f%%", f.Percent())
		},
	}).Parse(htmlSource))
})

// HTMLOptions tune WriteHTMLDir.
type HTMLOptions struct {
	// Base is the directory the profile's relative paths are read from.
	Base string
	// Root, when set, is the only directory sources are read from: a
	// merged profile may name any file, and a page must not quote one
	// outside.
	Root string
	// OutRoot, when set, is the project root the report directory may lie
	// in: the directory and its pages inside it are made and written
	// through it (atomicfile.WriteEntryBelow), so a link swapped in on the
	// way after kitsoki's check cannot lead them out.
	OutRoot string
}

type htmlIndex struct {
	Summary Summary
	Files   []htmlFileRow
	States  []htmlStateRow
}

type htmlFileRow struct {
	Path, Page    string
	Arcs, States  Figure
	Lines, Missed int
}

type htmlStateRow struct {
	State, Path, Page string
	Line              int
	Entered           int64
	Arcs, Effects     Figure
}

type htmlFile struct {
	Path    string
	Problem string // why the source could not be shown
	Lines   []htmlLine
	Orphans []Item // items past the end of the source (the file changed)
}

type htmlLine struct {
	Number int
	Text   string
	Class  string // "", "hit" or "miss"
	Count  string
	Title  string
}

// MaxHTMLFiles is the most story files WriteHTMLDir draws, one page each.
const MaxHTMLFiles = 5000

// WriteHTMLDir writes an HTML report into dir: index.html and one page per
// story file with its lines marked, like go tool cover -html. Story text
// is escaped (html/template): a story is untrusted input.
func WriteHTMLDir(dir string, p *Profile, o HTMLOptions) error {
	if len(p.Files) > MaxHTMLFiles {
		return fmt.Errorf("the profile names %d story files, more than the %d an HTML report draws (a page each); write it with --coverprofile FILE instead", len(p.Files), MaxHTMLFiles)
	}
	// under OutRoot the pages' own writes make dir, through the root
	if o.OutRoot == "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create the report directory: %s", safefile.Reason(err))
		}
	}
	idx := htmlIndex{Summary: p.Summarize()}
	for i, f := range p.Files {
		page := fmt.Sprintf("file%d.html", i+1)
		fp := &Profile{Files: []*File{f}}
		s := fp.Summarize()
		_, lines := f.Lines()
		idx.Files = append(idx.Files, htmlFileRow{Path: f.Path, Page: page, Arcs: s.Arcs, States: s.States, Lines: lines.Total, Missed: lines.Total - lines.Reached})
		idx.States = append(idx.States, stateRows(f, page)...)
		var b bytes.Buffer
		if err := htmlTemplates().ExecuteTemplate(&b, "file", fileView(f, o)); err != nil {
			return err
		}
		if err := atomicfile.WriteEntryBelow(o.OutRoot, filepath.Join(dir, page), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := htmlTemplates().ExecuteTemplate(&b, "index", idx); err != nil {
		return err
	}
	return atomicfile.WriteEntryBelow(o.OutRoot, filepath.Join(dir, "index.html"), b.Bytes(), 0o644)
}

// stateRows is the per-state table of one file.
func stateRows(f *File, page string) []htmlStateRow {
	var rows []htmlStateRow
	at := map[string]int{}
	for _, it := range f.Items {
		if it.Kind == engine.ReachState {
			at[it.State] = len(rows)
			rows = append(rows, htmlStateRow{State: it.Label, Path: f.Path, Page: page, Line: it.Line, Entered: it.Count})
		}
	}
	for _, it := range f.Items {
		i, ok := at[it.State]
		if !ok {
			continue
		}
		fig := &rows[i].Effects
		if arcKind(it.Kind) {
			fig = &rows[i].Arcs
		} else if it.Kind != engine.ReachEffect {
			continue
		}
		fig.add(it.Count)
	}
	return rows
}

// fileView reads the story file and marks its lines.
func fileView(f *File, o HTMLOptions) htmlFile {
	v := htmlFile{Path: f.Path}
	var text []string
	read := func(p string) ([]byte, error) { return safefile.ReadFile(p, safefile.Data) }
	if o.Root != "" {
		r := safefile.NewRoot(o.Root)
		defer r.Close()
		read = func(p string) ([]byte, error) { return r.ReadFile(absFile(p), safefile.Data) }
	}
	if data, err := read(fromBase(o.Base, f.Path)); errors.Is(err, safefile.ErrOutsideRoot) {
		v.Problem = "the source is not shown: it lies outside " + o.Root + " (absolute, \"..\" or a symlink leading out), and only files there are read"
	} else if err != nil {
		v.Problem = "the source cannot be shown: " + safefile.Reason(err)
	} else {
		text = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	marks := map[int]Line{}
	lines, _ := f.Lines()
	for _, l := range lines {
		marks[l.Number] = l
	}
	for i, t := range text {
		hl := htmlLine{Number: i + 1, Text: strings.TrimSuffix(t, "\r")}
		if l, ok := marks[i+1]; ok {
			hl.Class, hl.Count, hl.Title = "miss", "0", lineTitle(l)
			if l.Count > 0 {
				hl.Class, hl.Count = "hit", fmt.Sprint(l.Count)
			}
			delete(marks, i+1)
		}
		v.Lines = append(v.Lines, hl)
	}
	for _, it := range f.Items {
		if _, ok := marks[it.Line]; ok {
			v.Orphans = append(v.Orphans, it)
		}
	}
	return v
}

// lineTitle lists a line's parts with their counts (the hover text).
func lineTitle(l Line) string {
	var parts []string
	for _, it := range l.Items {
		parts = append(parts, fmt.Sprintf("%s %s: %d", it.Kind, it.Label, it.Count))
	}
	return strings.Join(parts, "\n")
}
