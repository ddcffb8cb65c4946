package plugin

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// ProfileDir is the operator directory searched upward from the story.
const ProfileDir = ".kitsoki"

// ProfileFile is the profile's name inside ProfileDir.
const ProfileFile = "plugins.yaml"

// Profile is the operator-owned plugin profile:
//
//	disable: [transport.mcp_http, agent.fixer]   # plugin ids or agent aliases
//	config:
//	  redact: {patterns: ["sk-[A-Za-z0-9]{8,}"], env: [OPENAI_API_KEY]}
//	  budget: {max_cost_usd: 2.5, max_tokens: 200000}
type Profile struct {
	Path    string
	Disable []Ref
	Redact  RedactConfig
	Budget  BudgetConfig
	// Configured lists the ids under config:, with positions (unknown ones
	// become warnings).
	Configured []Ref
}

// Ref is an id written in a profile, with its position (File is the
// profile's path).
type Ref struct {
	ID   string
	File string
	Line int
	Col  int
}

// RedactConfig configures the redact provider.
type RedactConfig struct {
	Patterns []*regexp.Regexp
	Env      []string
}

// BudgetConfig configures the budget provider (0 = no limit).
type BudgetConfig struct {
	MaxCostUSD float64
	MaxTokens  int64
}

// ProfileError is a malformed profile: every problem, positioned. When the
// file could not be read at all, ReadErr holds the reason ("no such file or
// directory") and Diagnostics its one diagnostic.
type ProfileError struct {
	Diagnostics []diag.Diagnostic
	ReadErr     error
}

func (e *ProfileError) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// FindProfiles returns every .kitsoki/plugins.yaml in dir and each parent,
// nearest first: the profiles an assembly applies before the operator's
// (see [Options]).
func FindProfiles(dir string) []string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	var out []string
	for d := range story.Ancestors(d) {
		p := filepath.Join(d, ProfileDir, ProfileFile)
		if present(p, false) {
			out = append(out, p)
		}
	}
	return out
}

// readProfileIn reads and parses a profile file; problems are a
// *ProfileError. A profile inside root (the repository's) is read through
// root: a symlink leading out of the checkout is refused unread. A nil
// root reads path as it is (the operator's). flag: path is --profile's,
// which an unreadable file's error says to fix.
func readProfileIn(root *safefile.Root, path string, flag bool, patterns *recost.Budget) (*Profile, error) {
	data, err := readConfined(root, path)
	if err != nil {
		why := outsideText(root, err)
		fix := "; fix or remove the file" // one found beside the story, or the user's
		if flag {
			fix = "; fix the path given to --profile"
		}
		msg := "cannot read the plugin profile: " + why + fix
		if errors.Is(err, safefile.ErrOutsideRoot) {
			msg = "cannot read the repository's plugin profile: " + why
		}
		return nil, &ProfileError{ReadErr: errors.New(why), Diagnostics: []diag.Diagnostic{{File: path, Severity: diag.Error, Rule: ruleProfile.ID, Message: msg}}}
	}
	return parseProfile(path, data, patterns)
}

// parseProfile parses profile YAML. name labels diagnostics; its redact
// patterns compile within patterns.
func parseProfile(name string, data []byte, patterns *recost.Budget) (*Profile, error) {
	pp := profileParser{name: name, p: &Profile{Path: name}, patterns: patterns}
	var doc yaml.Node
	if err := yamlnode.UnmarshalPlain(data, &doc); err != nil {
		if s, ok := errors.AsType[*yamlnode.SizeError](err); ok {
			pp.errf(s.Line, s.Col, "%s", yamlnode.TreeNodesMsg("plugin profile", yamlnode.MaxTreeNodes, "split it into smaller files"))
			return nil, pp.err()
		}
		line, msg := yamlnode.ErrLine(err)
		pp.errf(line, 0, "the plugin profile is not valid YAML: %s", msg)
		return nil, pp.err()
	}
	if len(doc.Content) == 0 {
		return pp.p, nil // empty file: default profile
	}
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		pp.errf(at.Line, at.Column, "%s", yamlnode.AliasTextMsg("plugin profile", ""))
		return nil, pp.err()
	}
	if k := yamlnode.ComplexKey(&doc); k != nil {
		pp.errf(k.Line, k.Column, "%s", yamlnode.ComplexKeyMsg("plugin profile"))
		return nil, pp.err()
	}
	// a key given twice anywhere (config sections too) is refused: the
	// operator's file must not lose a setting silently
	if at, msg := yamlnode.RepeatedKey(&doc, nil, "plugin profile"); at != nil {
		pp.errf(at.Line, at.Column, "%s", msg)
		return nil, pp.err()
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		pp.errf(root.Line, root.Column, "the plugin profile must be a mapping with disable: and config: keys")
		return nil, pp.err()
	}
	pp.w = yamlnode.NewWalker(name, len(data), &pp.diags, profileRules)
	pp.w.FieldsAt(root, yamlnode.Place{Where: "top level"}, yamlnode.Place{}, diag.Error, yamlnode.Fields{
		{Key: "version", Read: func(_, v *yaml.Node) {
			if v = yamlnode.Deref(v); v.Kind != yaml.ScalarNode || v.Value != "1" {
				pp.errf(v.Line, v.Column, "version: must be 1")
			}
		}},
		{Key: "disable", Read: func(_, v *yaml.Node) {
			for _, e := range pp.scalars(v, "disable: must be a list of plugin ids, e.g. [transport.mcp_http]", "disable: entries must be plugin ids (strings)", true) {
				pp.p.Disable = append(pp.p.Disable, Ref{ID: e.Value, File: pp.name, Line: e.Line, Col: e.Column})
			}
		}},
		{Key: "config", Read: func(_, v *yaml.Node) { pp.config(v) }},
	}, nil)
	if len(pp.diags) > 0 {
		return nil, pp.err()
	}
	return pp.p, nil
}

// profileRules reports every finding of a profile's walk as the profile's.
var profileRules = &yamlnode.Rules{Syntax: ruleProfile, Type: ruleProfile, Duplicate: ruleProfile, Unknown: ruleProfile}

type profileParser struct {
	w        *yamlnode.Walker // appends to diags
	name     string
	p        *Profile
	diags    []diag.Diagnostic
	patterns *recost.Budget // the redact patterns' (nil: one each)
}

func (pp *profileParser) errf(line, col int, format string, a ...any) {
	pp.diags = append(pp.diags, diag.Diagnostic{File: pp.name, Line: line, Col: col, Severity: diag.Error,
		Rule: ruleProfile.ID, Message: fmt.Sprintf(format, a...)})
}

func (pp *profileParser) err() error {
	return &ProfileError{Diagnostics: diag.Sort(pp.diags)}
}

// scalars is the entries of the list v: notList is the error when v is no
// list, notEntry when an entry is no string (or, with nonEmpty, is "").
func (pp *profileParser) scalars(v *yaml.Node, notList, notEntry string, nonEmpty bool) []*yaml.Node {
	if v = yamlnode.Deref(v); v.Kind != yaml.SequenceNode {
		pp.errf(v.Line, v.Column, "%s", notList)
		return nil
	}
	var out []*yaml.Node
	for _, e := range v.Content {
		if e = yamlnode.Deref(e); e.Kind != yaml.ScalarNode || (nonEmpty && e.Value == "") {
			pp.errf(e.Line, e.Column, "%s", notEntry)
			continue
		}
		out = append(out, e)
	}
	return out
}

func (pp *profileParser) stringList(v *yaml.Node, key string) []*yaml.Node {
	return pp.scalars(v, key+": must be a list of strings", key+": entries must be strings", false)
}

func (pp *profileParser) config(v *yaml.Node) {
	if d := yamlnode.Deref(v); d.Kind != yaml.MappingNode {
		pp.errf(d.Line, d.Column, "config: must map plugin ids to their settings")
		return
	}
	pp.w.Mapping(v, "config", nil, func(id string, k, c *yaml.Node) {
		pp.p.Configured = append(pp.p.Configured, Ref{ID: id, File: pp.name, Line: k.Line, Col: k.Column})
		switch id {
		case idRedact:
			pp.w.Fields(c, "config.redact", yamlnode.Fields{
				{Key: "patterns", Read: func(_, val *yaml.Node) {
					for _, e := range pp.stringList(val, "config.redact.patterns") {
						re, err := pp.patterns.Compile(e.Value)
						if err != nil {
							pp.errf(e.Line, e.Column, "config.redact.patterns: %q is not a valid regular expression: %v", e.Value, err)
							continue
						}
						pp.p.Redact.Patterns = append(pp.p.Redact.Patterns, re)
					}
				}},
				{Key: "env", Read: func(_, val *yaml.Node) {
					for _, e := range pp.stringList(val, "config.redact.env") {
						if !envNameRe.MatchString(e.Value) {
							pp.errf(e.Line, e.Column, "config.redact.env: %q is not an environment variable name", e.Value)
							continue
						}
						pp.p.Redact.Env = append(pp.p.Redact.Env, e.Value)
					}
				}},
			})
		case idBudget:
			pp.w.Fields(c, "config.budget", yamlnode.Fields{
				{Key: "max_cost_usd", Read: func(_, val *yaml.Node) {
					val = yamlnode.Deref(val)
					f, err := strconv.ParseFloat(val.Value, 64)
					if val.Kind != yaml.ScalarNode || err != nil || f < 0 {
						pp.errf(val.Line, val.Column, "config.budget.max_cost_usd: must be a non-negative number, got %q", val.Value)
						return
					}
					pp.p.Budget.MaxCostUSD = f
				}},
				{Key: "max_tokens", Read: func(_, val *yaml.Node) {
					val = yamlnode.Deref(val)
					n, err := strconv.ParseInt(val.Value, 10, 64)
					if val.Kind != yaml.ScalarNode || err != nil || n < 0 {
						pp.errf(val.Line, val.Column, "config.budget.max_tokens: must be a non-negative integer, got %q", val.Value)
						return
					}
					pp.p.Budget.MaxTokens = n
				}},
			})
		}
	})
}

var envNameRe = &lazyre.Regexp{Expr: `^[A-Za-z_][A-Za-z0-9_]*$`}
