package plugin

import (
	"encoding/json"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
)

// reportVersion is the version of the assembly report format.
const reportVersion = 1

// Report is the assembly as `kitsoki plugins --json` prints it.
type Report struct {
	Version int           `json:"version"`
	Story   string        `json:"story,omitempty"`
	Profile ReportProfile `json:"profile"`
	// Profiles are every profile layer applied, in order (the last is
	// Profile.Path).
	Profiles []Layer `json:"profiles"`
	// PluginsDir is the first of PluginsDirs, where external plugins are
	// looked for.
	PluginsDir  string         `json:"plugins_dir,omitempty"`
	PluginsDirs []string       `json:"plugins_dirs,omitempty"`
	BuildOrder  []string       `json:"build_order"`
	Plugins     []PluginStatus `json:"plugins"`
	Agents      []AgentStatus  `json:"agents"`
	Hooks       []HookStatus   `json:"hooks"`
	Warnings    []Warning      `json:"warnings"`
	// Hosts lists every host handler, built in or provided, with the story
	// calls it serves (filled by the caller: ListHosts).
	Hosts []HostEntry `json:"hosts,omitempty"`
}

// ReportProfile says which profile was applied last (the operator's when
// there is one).
type ReportProfile struct {
	Path  string `json:"path,omitempty"`
	Found bool   `json:"found"`
}

// Report returns the assembly report. It holds ids, reasons and positions,
// never a configured secret or pattern.
func (a *Assembly) Report(storyPath string) *Report {
	r := &Report{Version: reportVersion, Story: storyPath, Profile: ReportProfile{Path: a.ProfilePath, Found: a.ProfileFound},
		Profiles: orEmpty(a.Layers), PluginsDirs: a.PluginsDirs, BuildOrder: orEmpty(a.BuildOrder), Plugins: orEmpty(a.Plugins),
		Agents: orEmpty(a.Agents), Hooks: orEmpty(a.Hooks), Warnings: orEmpty(a.Warnings)}
	if len(a.PluginsDirs) > 0 {
		r.PluginsDir = a.PluginsDirs[0]
	}
	return r
}

// orEmpty is s, or an empty slice for nil (a report lists [], never null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// JSON encodes the report, indented, with the C1 and bidirectional
// controls a manifest or story may carry (which encoding/json leaves raw)
// escaped as \uXXXX (termsafe.JSON): the same JSON, safe to print.
func (r *Report) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	return termsafe.JSON(b), err
}

// Diagnostics returns the assembly warnings as diagnostics (rule
// plugin-profile, severity warning) for kitsoki validate. Profile errors
// come from Assemble's *ProfileError (see ProfileDiagnostics).
func (a *Assembly) Diagnostics() []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, w := range a.Warnings {
		out = append(out, diag.Diagnostic{File: w.File, Line: w.Line, Col: w.Col, Severity: diag.Warning, Rule: ruleProfile.ID, Message: w.Message})
	}
	return diag.Sort(out)
}

// ProfileDiagnostics assembles for opts and returns every profile problem
// as diagnostics: the positioned errors of a malformed profile, or the
// warnings of a resolved one. It is what kitsoki validate reports.
func ProfileDiagnostics(opts Options) []diag.Diagnostic {
	a, err := assembleFor(opts, false)
	if err != nil {
		if pe, ok := err.(*ProfileError); ok {
			return pe.Diagnostics
		}
		return []diag.Diagnostic{{File: opts.ProfilePath, Severity: diag.Error, Rule: ruleProfile.ID, Message: err.Error()}}
	}
	return a.Diagnostics()
}
