package diag

import (
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
)

// ToolInfo describes the producing tool for SARIF output.
type ToolInfo struct {
	Name    string
	Version string
	URI     string
	// Rules maps rule ids to a one-line description; rules that appear in
	// diagnostics but not here are still listed.
	Rules map[string]string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
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
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// WriteSARIF writes a SARIF 2.1.0 log with one run.
func WriteSARIF(w io.Writer, ds []Diagnostic, tool ToolInfo) error {
	ids := map[string]bool{}
	for id := range tool.Rules {
		ids[id] = true
	}
	for _, d := range ds {
		ids[d.Rule] = true
	}
	ruleIDs := make([]string, 0, len(ids))
	for id := range ids {
		ruleIDs = append(ruleIDs, id)
	}
	slices.Sort(ruleIDs)
	index := map[string]int{}
	rules := make([]sarifRule, len(ruleIDs))
	for i, id := range ruleIDs {
		index[id] = i
		rules[i] = sarifRule{ID: id}
		if desc := tool.Rules[id]; desc != "" {
			rules[i].ShortDescription = &sarifMessage{Text: desc}
		}
	}
	results := make([]sarifResult, 0, len(ds))
	for _, d := range ds {
		level := "error"
		if d.Severity == Warning {
			level = "warning"
		}
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: filepath.ToSlash(d.File)}}}
		if d.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Col}
		}
		results = append(results, sarifResult{
			RuleID: d.Rule, RuleIndex: index[d.Rule], Level: level,
			Message: sarifMessage{Text: d.Message}, Locations: []sarifLocation{loc},
		})
	}
	name := tool.Name
	if name == "" {
		name = "kitsoki"
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: name, Version: tool.Version, InformationURI: tool.URI, Rules: rules}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
