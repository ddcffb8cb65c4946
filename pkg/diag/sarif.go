package diag

import (
	"cmp"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
)

// ToolInfo describes the producing tool for SARIF output.
type ToolInfo struct {
	Name    string
	Version string
	URI     string
	// Rules are described by their summary and example; rules that only
	// appear in diagnostics are still listed.
	Rules []Rule
	// Root is the absolute directory SARIF URIs are relative to ("" is the
	// working directory); files outside it get absolute file: URIs.
	Root string
}

// srcRoot is the uriBaseId of repository-relative artifact URIs.
const srcRoot = "%SRCROOT%"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                   `json:"columnKind"`
	Results            []sarifResult            `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	ShortDescription *sarifMessage `json:"shortDescription,omitempty"`
	Help             *sarifMessage `json:"help,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// ruleHelp is a rule's SARIF help text: its summary and example.
func ruleHelp(r Rule) string {
	h := r.Summary + ".\nExample:\n" + r.Example
	if r.LintOnly {
		h += "\nThe existing engine loads a story with this finding; kitsoki run warns and goes ahead."
	}
	return h
}

// writeSARIF writes a SARIF 2.1.0 log with one run.
func writeSARIF(w io.Writer, ds []Diagnostic, tool ToolInfo) error {
	ids, byID := map[string]bool{}, map[string]Rule{}
	for _, r := range tool.Rules {
		ids[r.ID], byID[r.ID] = true, r
	}
	for _, d := range ds {
		ids[d.Rule] = true
	}
	ruleIDs := slices.Sorted(maps.Keys(ids))
	index := map[string]int{}
	rules := make([]sarifRule, len(ruleIDs))
	for i, id := range ruleIDs {
		index[id] = i
		rules[i] = sarifRule{ID: id}
		if r, ok := byID[id]; ok {
			rules[i].ShortDescription = &sarifMessage{Text: r.Summary}
			rules[i].Help = &sarifMessage{Text: ruleHelp(r)}
		}
	}
	root := tool.Root
	if root == "" {
		root, _ = filepath.Abs(".")
	}
	results := make([]sarifResult, 0, len(ds))
	for _, d := range ds {
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(root, d.File)}}
		if d.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Col}
		}
		results = append(results, sarifResult{
			RuleID: d.Rule, RuleIndex: index[d.Rule], Level: string(d.Severity),
			Message: sarifMessage{Text: d.Message}, Locations: []sarifLocation{loc},
		})
	}
	name := cmp.Or(tool.Name, "kitsoki")
	log := sarifLog{
		Schema:  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:               sarifTool{Driver: sarifDriver{Name: name, Version: tool.Version, InformationURI: tool.URI, Rules: rules}},
			OriginalURIBaseIDs: map[string]sarifArtifact{srcRoot: {URI: fileURI(root, true)}},
			ColumnKind:         "unicodeCodePoints",
			Results:            results,
		}},
	}
	return writeIndented(w, log)
}

// artifact locates file for SARIF: a URI relative to root with uriBaseId
// %SRCROOT%, or an absolute file: URI outside root.
func artifact(root, file string) sarifArtifact {
	abs, err := filepath.Abs(file)
	if err != nil {
		return sarifArtifact{URI: escapePath(filepath.ToSlash(file))}
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return sarifArtifact{URI: fileURI(abs, false)}
	}
	return sarifArtifact{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: srcRoot}
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fileURI is the file: URI of an absolute path (with a trailing slash for a
// directory).
func fileURI(abs string, dir bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x -> /C:/x
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return "file://" + escapePath(p)
}
