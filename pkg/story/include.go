package story

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
)

// includeMerged are the top-level keys an included file contributes.
var includeMerged = map[string]bool{
	"states": true, "phase_templates": true, "phases": true, "checkpoint_intents": true,
	"proposals": true, "hosts": true, "intents": true, "world": true, "meta_modes": true,
	"agents": true, "providers": true,
}

// mergeIncludes expands the manifest's include: globs (relative to the
// manifest's directory, lexical order, no nesting) and merges each file.
func (l *loader) mergeIncludes(st *Story, display string) {
	dispDir := filepath.Dir(display)
	// A file matched again (by another pattern, or twice by one list) is
	// merged again, as upstream merges it, so its declarations collide:
	// the first repeat lists the collisions, each later one is a single
	// error, and every repeat counts towards the story's total bytes, so
	// a file listed many times cannot multiply errors or memory.
	type included struct {
		fd    *fileDef
		size  int64
		again int
	}
	seen := map[string]*included{}
	names := declaredNames(st)
	globs := newGlobber(st.root)
	total := int64(len(l.sources[display]))
	for i, pat := range st.Include {
		at := Pos{File: display}
		if i < len(st.IncludePos) {
			at = st.IncludePos[i]
		}
		full := beside(dispDir, pat)
		// The pattern itself must stay inside the project root.
		absPat, _ := filepath.Abs(full)
		if _, ok := st.root.Rel(absPat); !ok {
			l.outsideRoot(at, st.root, "include", pat, nil)
			continue
		}
		matches, outside, err := globs.in(full)
		if err != nil {
			l.rep.Errf(at, RuleInclude, "include glob %q: %v", pat, err)
			if errors.Is(err, errGlobsTooMany) {
				return
			}
			continue
		}
		for _, o := range outside {
			l.outsideRoot(at, st.root, fmt.Sprintf("include %q: directory", pat), o, &os.PathError{Op: "read", Path: o, Err: safefile.ErrOutsideRoot})
		}
		sort.Strings(matches)
		if len(matches) == 0 && len(outside) == 0 {
			l.rep.Warnf(at, RuleInclude, "include glob %q matches no file (upstream ignores it silently)", pat)
		}
		for _, m := range matches {
			abs, _ := filepath.Abs(m)
			if inc, again := seen[abs]; again {
				if inc == nil {
					continue
				}
				if total += inc.size; total > l.opts.storyBytes() {
					l.rep.Errf(at, RuleInclude, "include %q: %s, included again, brings the story's YAML (%s and its include: files) to %d bytes, over the %d a story may total, as one file may hold; list it once", pat, m, display, total, l.opts.storyBytes())
					return
				}
				if inc.again++; inc.again == 1 {
					mark := len(l.rep.Diags)
					l.mergeDecls(st, inc.fd, names, fmt.Sprintf(" (%s is included again by %q: each match is merged, so list it once)", m, pat))
					if len(l.rep.Diags) == mark {
						inc.again = -1 // it declares nothing that collides: nor will a later repeat
					}
				} else if inc.again > 0 {
					l.rep.Errf(at, RuleInclude, "include %q: %s is included again (repeat %d): each match is merged, and its declarations collide as at its first repeat; list it once", pat, m, inc.again)
				}
				continue
			}
			seen[abs] = nil
			// Through the root: a symlink leading out is refused unread.
			fi, err := st.root.Stat(abs)
			if errors.Is(err, safefile.ErrOutsideRoot) {
				l.outsideRoot(at, st.root, fmt.Sprintf("include %q: file", pat), m, err)
				continue
			}
			// Upstream refuses the story when a match cannot be read.
			if err != nil {
				l.rep.Errf(at, RuleInclude, "include %q: %s: %s (upstream refuses the story too; remove the file or narrow the glob)", pat, m, safefile.ErrText(err))
				continue
			}
			if fi.IsDir() {
				l.rep.Errf(at, RuleInclude, "include %q: %s is a directory, not a story file (upstream refuses the story too; %s)", pat, m, narrowGlobHint(pat))
				continue
			}
			data, ok, err := l.readIn(st.root, abs)
			if !ok {
				l.outsideRoot(at, st.root, fmt.Sprintf("include %q: file", pat), m, err)
				continue
			}
			if err != nil {
				l.rep.Errf(at, RuleInclude, "include %q: %s: %s", pat, m, safefile.ErrText(err))
				continue
			}
			if total += int64(len(data)); total > l.opts.storyBytes() {
				l.rep.Errf(at, RuleInclude, "include %q: %s brings the story's YAML (%s and its include: files) to %d bytes, over the %d a story may total, as one file may hold; split the story with imports: or make it smaller", pat, m, display, total, l.opts.storyBytes())
				return
			}
			fd, _ := l.parseFileDoc(m, abs, data, true)
			if fd == nil {
				continue
			}
			seen[abs] = &included{fd: fd, size: int64(len(data))}
			st.Manifests = append(st.Manifests, m)
			l.mergeOne(st, fd, names)
		}
	}
}

func (l *loader) mergeOne(st *Story, fd *fileDef, names *declared) {
	keys := slices.Sorted(maps.Keys(fd.present))
	for _, k := range keys {
		if !includeMerged[k] {
			l.rep.Warnf(fd.present[k], RuleInclude, "include: top-level key %q in an included file is ignored (only states, intents, world, agents, providers, hosts, meta_modes, proposals, phases, phase_templates and checkpoint_intents are merged); move it to the manifest", k)
		}
	}
	if fd.pluginsNode != nil {
		// Upstream drops an included file's agent_plugins: unvalidated, after
		// decoding it strictly: keep only what that decode refuses.
		mark := len(l.rep.Diags)
		l.resolvePlugins(&Story{AgentPlugins: map[string]*AgentPlugin{}}, fd)
		kept := slices.DeleteFunc(l.rep.Diags[mark:], func(d diag.Diagnostic) bool { return !childPluginShape[d.Rule] })
		l.rep.Diags = l.rep.Diags[:mark+len(kept)]
	}
	l.mergeDecls(st, fd, names, "")
}

// declared holds the names of a story's listed declarations, kept as the
// includes merge into them: a set made again for each include made a
// story of N includes cost N² (TestIncludeManyFilesMergeIsLinear).
type declared struct{ states, hosts, world map[string]bool }

// declaredNames is what st declares before its includes merge.
func declaredNames(st *Story) *declared {
	d := &declared{states: map[string]bool{}, hosts: map[string]bool{}, world: map[string]bool{}}
	for _, s := range st.States {
		d.states[s.Name] = true
	}
	for _, h := range st.Hosts {
		d.hosts[h] = true
	}
	for _, w := range st.World {
		d.world[w.Name] = true
	}
	return d
}

// mergeDecls merges the declarations of an included file; a name already
// declared is an error, its text followed by hint.
func (l *loader) mergeDecls(st *Story, fd *fileDef, names *declared, hint string) {
	inc := fd.st
	collide := func(p Pos, what, name string) {
		l.rep.Errf(p, RuleInclude, "include: %s %q is already declared%s", what, name, hint)
	}
	mergeListed(&st.States, inc.States, names.states, "state", func(s *State) (string, Pos) { return s.Name, s.Pos }, collide)
	mergeNamed(st.PhaseTemplates, inc.PhaseTemplates, "phase_template", func(v *PhaseTemplate) Pos { return v.Pos }, collide)
	if inc.Phases != nil {
		if st.Phases != nil {
			l.rep.Errf(inc.Phases.Pos, RuleInclude, "include: phases: block already declared%s", hint)
		} else {
			st.Phases = inc.Phases
		}
	}
	mergeNamed(st.CheckpointIntents, inc.CheckpointIntents, "checkpoint_intent", func(v *Intent) Pos { return v.Pos }, collide)
	mergeNamed(st.Proposals, inc.Proposals, "proposal", func(v *Proposal) Pos { return v.Pos }, collide)
	mergeListed(&st.Hosts, inc.Hosts, names.hosts, "host", func(h string) (string, Pos) { return h, Pos{} }, nil)
	for _, n := range inc.IntentOrder {
		if _, dup := st.Intents[n]; dup {
			collide(inc.Intents[n].Pos, "intent", n)
			continue
		}
		st.Intents[n] = inc.Intents[n]
		st.IntentOrder = append(st.IntentOrder, n)
	}
	mergeListed(&st.World, inc.World, names.world, "world variable", func(w *WorldVar) (string, Pos) { return w.Name, w.Pos }, collide)
	mergeNamed(st.MetaModes, inc.MetaModes, "meta_mode", func(v *MetaMode) Pos { return v.Pos }, collide)
	mergeNamed(st.Agents, inc.Agents, "agent", func(v *Persona) Pos { return v.Pos }, collide)
	mergeNamed(st.Providers, inc.Providers, "provider", func(v *Provider) Pos { return v.Pos }, collide)
}

// HasTop reports whether st has a top-level state named name.
func HasTop(st *Story, name string) bool {
	return slices.ContainsFunc(st.States, func(s *State) bool { return s.Name == name })
}

// mergeNamed adds src's entries to dst; a name dst already has is
// reported through collide (at the entry's position, pos) and not merged.
func mergeNamed[V any](dst, src map[string]V, what string, pos func(V) Pos, collide func(Pos, string, string)) {
	for n, v := range src {
		if _, dup := dst[n]; dup {
			collide(pos(v), what, n)
			continue
		}
		dst[n] = v
	}
}

// mergeListed appends src's entries to *dst in order, each name once; a
// name *dst already has (in seen, the names of *dst, which it keeps) is
// reported through collide (nil: dropped silently) and not merged. A set,
// as a list search is quadratic.
func mergeListed[V any](dst *[]V, src []V, seen map[string]bool, what string, key func(V) (string, Pos), collide func(Pos, string, string)) {
	for _, v := range src {
		n, at := key(v)
		if seen[n] {
			if collide != nil {
				collide(at, what, n)
			}
			continue
		}
		seen[n] = true
		*dst = append(*dst, v)
	}
}

// narrowGlobHint says how to keep an include glob off a directory: match
// YAML files only, or, when the glob already does, rename the directory.
func narrowGlobHint(pat string) string {
	dir, file := filepath.Split(pat)
	if file == "*.yaml" || !HasGlobMeta(file) {
		return "rename the directory or list the files it holds"
	}
	return "narrow the glob to files, e.g. " + dir + "*.yaml"
}
