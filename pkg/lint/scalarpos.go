package lint

import (
	"strings"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// sources reads the files of one load, split into lines once per file, so
// that a diagnostic names the offending token inside a scalar.
type sources struct {
	read func(file string) ([]byte, bool) // (*story.Story).Source
	// held is what the load's checks read besides its YAML, held once
	// and bounded together (story_reads.go).
	held  *heldReads
	lines map[string][]string
	// covered are errors another check of the load reports in full,
	// dropped once every story is checked (rule_imports.go).
	covered []coveredDiag
	// runnable: only the passes of rules that can refuse a run are run
	// (LoadRunnable).
	runnable bool
	// scalar caches the last scalar valuePos read (a rule reporting every
	// read of one long value asks it again and again).
	scalar struct {
		p   story.Pos
		val string
		pos *yamlnode.ScalarPos
	}
	// world caches the world keys the load's tree writes (world_writes.go).
	world *worldKeys
	// folded caches the folded world keys the load's tree gives a value
	// (world_writes.go).
	folded *foldedWorld
	// taint caches the world keys of the load's tree that may hold an
	// untrusted value (rule_shell_injection.go).
	taint *taintedWorld
	// emits caches the emit_intent slots the load's tree sets from a
	// template (shell_slots.go).
	emits map[string][]emitSlot
	// ifaces caches the handler names a top story's tree rewrites its
	// iface.* invokes to (iface_hosts.go).
	ifaces map[*story.Story][]string
	// decls caches each story's intent declarations (shell_slots.go).
	decls map[*story.Story]map[string][]*story.Intent
	// expansions caches each phased story of the load with its phases:
	// expanded (expanded).
	expansions map[*story.Story]*expansion
	// portable holds the Starlark files rule starlark-portable has
	// checked (rule_starlark_portable.go).
	portable map[string]bool
	// hosts caches inheritedHosts of the load's stories (rule_hosts.go).
	hosts map[*story.Story][]string
	// overridden caches, per importer, the aliases under which it imports
	// each child with overrides: (world_reads.go).
	overridden map[*story.Story]map[*story.Story][]string
}

// expansion is one story with its phases: expanded (phases.Expanded).
type expansion struct {
	st     *story.Story
	origin map[string]string
	err    error
}

// expanded returns st with its phases: expanded, worked out once per
// load: the phases-expanded pass, the world writes and the shell-injection
// taint read the same copy, which none of them changes.
func (l *sources) expanded(st *story.Story) *expansion {
	if x, ok := l.expansions[st]; ok {
		return x
	}
	exp, origin, err := phases.Expanded(st)
	x := &expansion{exp, origin, err}
	if l.expansions == nil {
		l.expansions = map[*story.Story]*expansion{}
	}
	l.expansions[st] = x
	return x
}

// valuePos is yamlnode.ValueAt over the file's lines; the scalar is read
// once for all the places asked of it in a row.
func (l *sources) valuePos(p story.Pos, val string, line, col int) story.Pos {
	if line <= 0 || col <= 0 || p.Line <= 0 || p.Col <= 0 {
		return p
	}
	if c := &l.scalar; c.pos != nil && c.p == p && c.val == val {
		return c.pos.At(line, col)
	}
	lines, ok := l.sourceLines(p.File)
	if !ok {
		return p
	}
	l.scalar.p, l.scalar.val, l.scalar.pos = p, val, yamlnode.NewScalarPos(lines, p, val)
	return l.scalar.pos.At(line, col)
}

// sourceLines returns the lines of a file the loader read (split once).
func (l *sources) sourceLines(file string) ([]string, bool) {
	if lines, ok := l.lines[file]; ok {
		return lines, true
	}
	src, ok := l.read(file)
	if !ok {
		return nil, false
	}
	lines := strings.Split(string(src), "\n")
	if l.lines == nil {
		l.lines = map[string][]string{}
	}
	l.lines[file] = lines
	return lines, true
}
