package story

import (
	"fmt"
	"strings"

	"kitsoki/internal/lazyre"
)

// TargetKind classifies a resolved target.
type TargetKind int

const (
	// TargetStay: "" or "." — stay in the current state, on_enter does not re-run.
	TargetStay TargetKind = iota
	// TargetState: a state of the tree (Target.State is set).
	TargetState
	// TargetExit: "@exit:<name>" (Target.Exit is set).
	TargetExit
	// TargetTemplate: a target holding {{, rendered at run time (a {% %}
	// tag alone is a path: TemplatedAt(FieldTarget)).
	TargetTemplate
	// TargetPhase: a state phases: expansion generates, not in this model.
	TargetPhase
)

// Target is the result of resolving a transition/on_error/timeout target.
type Target struct {
	Kind TargetKind
	// Path is the dotted absolute path (TargetState, TargetPhase).
	Path string
	// State is the destination (an import alias's wrapper state included).
	State *State
	// Exit is the exit name of an @exit: target.
	Exit string
	// Reentry: the target names the current state itself (on_enter re-runs).
	Reentry bool
}

// TargetError explains why a target does not resolve.
type TargetError struct {
	Target   string
	Resolved string
	Msg      string
}

func (e *TargetError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return fmt.Sprintf("transition target %q (resolved: %q) does not exist", e.Target, e.Resolved)
}

// Resolve resolves target from this state as the engine does (ResolvePath;
// "@exit:" names an exit, templates stay unresolved).
func (s *State) Resolve(target string) (Target, error) {
	if s == nil || s.story == nil {
		return Target{}, &TargetError{Target: target, Resolved: target, Msg: "state is not part of a loaded story"}
	}
	return s.story.resolveAt(s.Path, s, target)
}

// ResolveTarget resolves an absolute target; "../" forms are rejected.
func (st *Story) ResolveTarget(target string) (Target, error) {
	return st.resolveAt("", nil, target)
}

// ResolveFrom resolves target against base (a state path, or an encoded
// parallel dispatch state) and looks the result up; the engine calls it.
func (st *Story) ResolveFrom(base, target string) (Target, error) {
	return st.resolveAt(base, st.byPath[base], target)
}

func (st *Story) resolveAt(base string, from *State, target string) (Target, error) {
	t := strings.TrimSpace(target)
	switch {
	case t == "" || t == ".":
		return Target{Kind: TargetStay}, nil
	case TemplatedAt(FieldTarget, t):
		return Target{Kind: TargetTemplate}, nil
	case strings.HasPrefix(t, "@exit:"):
		return Target{Kind: TargetExit, Exit: strings.TrimPrefix(t, "@exit:")}, nil
	}
	resolved, err := ResolvePath(base, t)
	if err != nil {
		return Target{}, &TargetError{Target: target, Resolved: t,
			Msg: fmt.Sprintf("transition target %q climbs above the top level (too many ../ segments)", target)}
	}
	if resolved == "" {
		return Target{}, &TargetError{Target: target, Resolved: resolved}
	}
	if s := st.byPath[resolved]; s != nil {
		return Target{Kind: TargetState, Path: resolved, State: s, Reentry: from != nil && s == from}, nil
	}
	segs := strings.Split(resolved, ".")
	if w := st.byPath[segs[0]]; w != nil && w.Import != nil {
		entry := w.Import.Entry
		if entry == "" && w.Import.Child != nil {
			entry = w.Import.Child.Root
		}
		if len(segs) == 2 && segs[1] == entry {
			return Target{Kind: TargetState, Path: resolved, State: w}, nil
		}
		return Target{}, &TargetError{Target: target, Resolved: resolved,
			Msg: fmt.Sprintf("target %q reaches into the imported child %q past its entry %q; use target: %q to invoke the child or have the child expose a new exit", target, segs[0], entry, segs[0])}
	}
	if st.phaseGen[segs[0]] {
		return Target{Kind: TargetPhase, Path: resolved}, nil
	}
	return Target{}, &TargetError{Target: target, Resolved: resolved}
}

// ResolvePath resolves a target path against base, the dotted path of the
// state it is resolved from, exactly as upstream's engine does (reference
// §4.3); the loader's checks and the engine both call it. "" and "." are
// base; a target not starting with ".." is absolute ("/" becomes ".");
// otherwise each ".." segment of it split on "/" pops one segment off base,
// "." and empty segments are skipped and others appended ("..c" from "a.b"
// is "a.b...c", no state). It does not check that the result exists.
func ResolvePath(base, target string) (string, error) {
	t := strings.TrimSpace(target)
	if t == "" || t == "." {
		return base, nil
	}
	path, ok := ClimbPath(base, t)
	if !ok {
		return "", fmt.Errorf("target %q climbs above the top level (too many ../ segments)", target)
	}
	return path, nil
}

// ClimbPath is ResolvePath of a target as written (not trimmed, "" not
// base); ok is false when a ".." climbs above the top level, where it stays.
func ClimbPath(base, target string) (path string, ok bool) {
	if !strings.HasPrefix(target, "..") {
		return strings.ReplaceAll(target, "/", "."), true
	}
	var segs []string
	if base != "" {
		segs = strings.Split(base, ".")
	}
	ok = true
	for _, seg := range strings.Split(target, "/") {
		switch seg {
		case "", ".":
		case "..":
			ok = ok && len(segs) > 0
			segs = segs[:max(len(segs)-1, 0)]
		default:
			segs = append(segs, seg)
		}
	}
	return strings.Join(segs, "."), ok
}

// Climbs counts the leading "../" segments of target (a final ".." is one
// more): how many levels it climbs before naming anything.
func Climbs(target string) int {
	n, rest := 0, target
	for strings.HasPrefix(rest, "../") {
		n++
		rest = rest[3:]
	}
	if rest == ".." {
		n++
	}
	return n
}

var (
	PhaseParamRe = &lazyre.Regexp{Expr: `\{([A-Za-z_][A-Za-z0-9_]*)\}`}
	// PhaseRefRe is a reference pkg/phases replaces in a template body.
	PhaseRefRe = &lazyre.Regexp{Expr: `\{\{\s*(tpl|phase\.next)\.\w+\s*\}\}`}
)

// phaseGeneratedNames lists the top-level state names phases: creates. A
// {name} is the entry's parameter, else the template's default; {id} is
// the graph key, as pkg/phases expands it. Each name's placeholders are
// found once, not once per entry.
func phaseGeneratedNames(st *Story) map[string]bool {
	out := map[string]bool{}
	if st.Phases == nil {
		return out
	}
	tpl := st.PhaseTemplates[st.Phases.Template]
	if tpl == nil || len(st.Phases.Graph) == 0 {
		return out
	}
	type templated struct {
		name  string
		holes [][]int // PhaseParamRe's submatch indexes in name
	}
	var names []templated
	for _, s := range tpl.States {
		if s == nil {
			continue
		}
		if holes := PhaseParamRe.Get().FindAllStringSubmatchIndex(s.Name, -1); len(holes) > 0 {
			names = append(names, templated{s.Name, holes})
		} else {
			out[s.Name] = true
		}
	}
	var b strings.Builder
	for id, node := range st.Phases.Graph {
		for _, t := range names {
			b.Reset()
			last := 0
			for _, h := range t.holes {
				if v, ok := phaseParam(tpl, node, id, t.name[h[2]:h[3]]); ok {
					b.WriteString(t.name[last:h[0]])
					b.WriteString(v)
					last = h[1]
				}
			}
			b.WriteString(t.name[last:])
			out[b.String()] = true
		}
	}
	return out
}

// phaseParam is the text of parameter name for the graph entry id (node).
func phaseParam(tpl *PhaseTemplate, node *PhaseNode, id, name string) (string, bool) {
	if name == "id" {
		return id, true
	}
	if node != nil {
		if v, ok := node.Params[name]; ok {
			return fmt.Sprint(v), true
		}
	}
	if pp := tpl.Parameters[name]; pp != nil && pp.Default != nil {
		return fmt.Sprint(pp.Default), true
	}
	return "", false
}

// ResolveInvoke maps iface.<name>.<op> to the interface's default binding;
// other invokes are unchanged. ok is false for an undeclared interface.
func (st *Story) ResolveInvoke(invoke string) (string, bool) {
	if !strings.HasPrefix(invoke, "iface.") {
		return invoke, true
	}
	name, op, ok := IfaceCall(invoke)
	if !ok {
		return invoke, false
	}
	hi := st.HostInterfaces[name]
	if hi == nil || hi.Default == "" {
		return invoke, false
	}
	return hi.Default + "." + op, true
}
