package coverage

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"unicode/utf8"
)

type cobCoverage struct {
	XMLName         xml.Name     `xml:"coverage"`
	LineRate        string       `xml:"line-rate,attr"`
	BranchRate      string       `xml:"branch-rate,attr"`
	LinesCovered    int          `xml:"lines-covered,attr"`
	LinesValid      int          `xml:"lines-valid,attr"`
	BranchesCovered int          `xml:"branches-covered,attr"`
	BranchesValid   int          `xml:"branches-valid,attr"`
	Complexity      string       `xml:"complexity,attr"`
	Version         string       `xml:"version,attr"`
	Timestamp       string       `xml:"timestamp,attr"`
	Sources         []string     `xml:"sources>source"`
	Packages        []cobPackage `xml:"packages>package"`
}

type cobPackage struct {
	Name       string     `xml:"name,attr"`
	LineRate   string     `xml:"line-rate,attr"`
	BranchRate string     `xml:"branch-rate,attr"`
	Complexity string     `xml:"complexity,attr"`
	Classes    []cobClass `xml:"classes>class"`
}

type cobClass struct {
	Name       string    `xml:"name,attr"`
	Filename   string    `xml:"filename,attr"`
	LineRate   string    `xml:"line-rate,attr"`
	BranchRate string    `xml:"branch-rate,attr"`
	Complexity string    `xml:"complexity,attr"`
	Methods    struct{}  `xml:"methods"`
	Lines      []cobLine `xml:"lines>line"`
}

type cobLine struct {
	Number int   `xml:"number,attr"`
	Hits   int64 `xml:"hits,attr"`
}

func rate(f Figure) string {
	if f.Total == 0 {
		return "1"
	}
	return strconv.FormatFloat(float64(f.Reached)/float64(f.Total), 'f', 4, 64)
}

// WriteCobertura writes p as Cobertura XML (what GitLab reads): a package
// per story directory, a class per file, lines counted as in LCOV. The
// timestamp is 0, so equal profiles are equal bytes. A path XML cannot
// hold is an error naming it (xmlPath), nothing written.
func WriteCobertura(w io.Writer, p *Profile) error {
	doc := cobCoverage{BranchRate: "0", Complexity: "0", Version: "kitsoki", Timestamp: "0", Sources: []string{"."}}
	pkgs := map[string]int{}
	var all Figure    // the lines of every file
	var figs []Figure // the lines of each package
	for _, f := range p.Files {
		if err := xmlPath(f.Path); err != nil {
			return err
		}
		dir := path.Dir(f.Path)
		i, ok := pkgs[dir]
		if !ok {
			i = len(doc.Packages)
			pkgs[dir] = i
			doc.Packages = append(doc.Packages, cobPackage{Name: dir, BranchRate: "0", Complexity: "0"})
			figs = append(figs, Figure{})
		}
		cl := cobClass{Name: path.Base(f.Path), Filename: f.Path, BranchRate: "0", Complexity: "0"}
		lines, fig := f.Lines()
		for _, l := range lines {
			cl.Lines = append(cl.Lines, cobLine{Number: l.Number, Hits: l.Count})
		}
		cl.LineRate = rate(fig)
		figs[i].Reached += fig.Reached
		figs[i].Total += fig.Total
		all.Reached += fig.Reached
		all.Total += fig.Total
		doc.Packages[i].Classes = append(doc.Packages[i].Classes, cl)
	}
	for i, fig := range figs {
		doc.Packages[i].LineRate = rate(fig)
	}
	doc.LineRate, doc.LinesCovered, doc.LinesValid = rate(all), all.Reached, all.Total
	if _, err := io.WriteString(w, xml.Header+`<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">`+"\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlPath refuses a story path that XML 1.0 cannot hold: encoding/xml
// writes U+FFFD for an invalid UTF-8 byte, a C0 control other than tab and
// line breaks, a surrogate or U+FFFE/U+FFFF, so the report would name
// another file (a repository's file may be called anything).
func xmlPath(p string) error {
	for i, r := range p {
		bad := ""
		switch {
		case r == utf8.RuneError && len(p[i:]) > 0:
			if _, n := utf8.DecodeRuneInString(p[i:]); n == 1 {
				bad = fmt.Sprintf("the byte 0x%02x, which is not UTF-8", p[i])
			}
		case !xmlChar(r):
			bad = fmt.Sprintf("%U", r)
		}
		if bad != "" {
			return fmt.Errorf("the Cobertura XML cannot hold the path %s: it has %s at byte %d, which XML has no way to write; rename the file, or write the profile as LCOV or JSON (--coverprofile FILE.lcov or FILE.json)", strconv.QuoteToASCII(p), bad, i)
		}
	}
	return nil
}

// xmlChar reports whether r is an XML 1.0 Char (the spec's production 2).
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= utf8.MaxRune
}
