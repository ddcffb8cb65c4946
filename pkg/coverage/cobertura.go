package coverage

import (
	"encoding/xml"
	"io"
	"path"
	"strconv"
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

func rate(hit, total int) string {
	if total == 0 {
		return "1"
	}
	return strconv.FormatFloat(float64(hit)/float64(total), 'f', 4, 64)
}

// WriteCobertura writes p as Cobertura XML (what GitLab's coverage
// visualisation reads): a package per story directory, a class per story
// file, a line per source line that starts a part of the story (counted
// as in LCOV). Filenames are the profile's paths, under the source ".".
// The timestamp is 0, so equal profiles are equal bytes.
func WriteCobertura(w io.Writer, p *Profile) error {
	doc := cobCoverage{BranchRate: "0", Complexity: "0", Version: "kitsoki", Timestamp: "0", Sources: []string{"."}}
	pkgs := map[string]int{}
	pkgHit, pkgAll := map[string]int{}, map[string]int{}
	for _, f := range p.Files {
		dir := path.Dir(f.Path)
		i, ok := pkgs[dir]
		if !ok {
			i = len(doc.Packages)
			pkgs[dir] = i
			doc.Packages = append(doc.Packages, cobPackage{Name: dir, BranchRate: "0", Complexity: "0"})
		}
		cl := cobClass{Name: path.Base(f.Path), Filename: f.Path, BranchRate: "0", Complexity: "0"}
		hit := 0
		lines := f.Lines()
		for _, l := range lines {
			cl.Lines = append(cl.Lines, cobLine{Number: l.Number, Hits: l.Count})
			if l.Count > 0 {
				hit++
			}
		}
		cl.LineRate = rate(hit, len(lines))
		pkgHit[dir] += hit
		pkgAll[dir] += len(lines)
		doc.LinesCovered += hit
		doc.LinesValid += len(lines)
		doc.Packages[i].Classes = append(doc.Packages[i].Classes, cl)
	}
	for dir, i := range pkgs {
		doc.Packages[i].LineRate = rate(pkgHit[dir], pkgAll[dir])
	}
	doc.LineRate = rate(doc.LinesCovered, doc.LinesValid)
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
