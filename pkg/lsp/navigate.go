package lsp

import (
	"path/filepath"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// at reads the spot under an LSP position in its document and the model of
// the story the document belongs to (sp nil: no scalar there).
func (s *Server) at(p protocol.TextDocumentPositionParams) (path string, st *story.Story, sp *spot) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return "", nil, nil
	}
	ls, root, ok := s.tree(path)
	if !ok || int(p.Position.Line) >= len(ls) {
		return path, nil, nil
	}
	sp = locate(root, int(p.Position.Line)+1, runeCol(ls[p.Position.Line], p.Position.Character))
	if sp == nil {
		return path, nil, nil
	}
	return path, s.storyFor(path), sp
}

// storyFor returns the model of the story path belongs to, checking it
// once if it was never checked.
func (s *Server) storyFor(path string) *story.Story {
	s.flush()
	if st := s.ws.story(s.rootOf(path), path); st != nil {
		return st
	}
	s.checkMu.Lock()
	s.checkStories(s.manifestsOf(path))
	s.checkMu.Unlock()
	return s.ws.story(s.rootOf(path), path)
}

// target kinds a spot can name.
type refKind int

const (
	refNone refKind = iota
	refState
	refIntent
	refWorld
	refAlias
	refPersona
	refFile
	refImport
	refRef // a JSON Schema $ref
	refVerb
)

type ref struct {
	kind refKind
	name string // the state path, intent, world key, alias, persona, file path
}

var fileKeys = map[string]bool{"prompt": true, "prompt_path": true, "schema": true, "system_prompt_path": true,
	"script": true, "context_path": true, "evidence": true, "template_path": true,
	"view": true, "template": true, "file": true, "path": true, "overlay": true}

// classify decides what the spot refers to in st.
func classify(st *story.Story, sp *spot) ref {
	if sp == nil || sp.node == nil {
		return ref{}
	}
	v := sp.node.Value
	key, parent := sp.named(0), sp.named(1)
	if sp.offset >= 0 && !sp.isKey {
		if w := wordAt(v, sp.offset); strings.HasPrefix(w, "world.") {
			name, _, _ := strings.Cut(strings.TrimPrefix(w, "world."), ".")
			return ref{kind: refWorld, name: name}
		}
	}
	if sp.isKey {
		return classifyKey(sp, v, parent)
	}
	return classifyValue(st, sp, v, key, parent)
}

// classifyKey names what the mapping key v declares, by its parent key.
func classifyKey(sp *spot, v, parent string) ref {
	switch parent {
	case "on", "intents":
		return ref{kind: refIntent, name: v}
	case "set", "bind", "increment":
		name, _, _ := strings.Cut(v, ".")
		return ref{kind: refWorld, name: name}
	case "states":
		return ref{kind: refState, name: joinPath(sp.statePath(), v)}
	case "agent_plugins":
		return ref{kind: refAlias, name: v}
	case "agents":
		return ref{kind: refPersona, name: v}
	}
	return ref{}
}

// classifyValue names what the scalar value v under key refers to.
func classifyValue(st *story.Story, sp *spot, v, key, parent string) ref {
	switch {
	case key == "target" || key == "on_error" || key == "to" || key == "root":
		return ref{kind: refState, name: resolveState(st, sp.statePath(), v)}
	case key == "initial":
		return ref{kind: refState, name: joinPath(sp.statePath(), v)}
	case key == "emit_intent" || key == "default_intent" || (key == "intent" && parent != "") || key == "menu":
		return ref{kind: refIntent, name: v}
	case key == "agent" && parent == "with":
		return ref{kind: refPersona, name: v}
	case key == "agent":
		if st != nil && st.AgentPlugins[v] != nil {
			return ref{kind: refAlias, name: v}
		}
		return ref{kind: refPersona, name: v}
	case key == "invoke" && strings.HasPrefix(v, "host.agent."):
		return ref{kind: refVerb, name: strings.TrimPrefix(v, "host.agent.")}
	case key == "$ref":
		return ref{kind: refRef, name: v}
	case key == "source" && len(sp.keys) >= 3 && sp.keys[0] == "imports":
		return ref{kind: refImport, name: sp.keys[1]}
	case fileKeys[key] || (key == "[]" && parent == "include") || parent == "include":
		return ref{kind: refFile, name: v}
	case key == "relevant_world":
		return ref{kind: refWorld, name: v}
	}
	return ref{}
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// resolveState resolves a target written in the state at from.
func resolveState(st *story.Story, from, target string) string {
	if st == nil {
		return target
	}
	if s := st.State(from); s != nil {
		if t, err := s.Resolve(target); err == nil && t.Path != "" {
			return t.Path
		}
	}
	if t, err := st.ResolveTarget(target); err == nil && t.Path != "" {
		return t.Path
	}
	return strings.ReplaceAll(target, "/", ".")
}

// locationOf is where r is declared.
func locationOf(st *story.Story, path string, r ref) (story.Pos, bool) {
	if st == nil {
		return story.Pos{}, false
	}
	switch r.kind {
	case refState:
		if s := st.State(r.name); s != nil {
			return s.Pos, true
		}
	case refIntent:
		return intentPos(st, r.name)
	case refWorld:
		if v := st.Var(r.name); v != nil {
			return v.Pos, true
		}
	case refAlias:
		if p := st.AgentPlugins[r.name]; p != nil && p.Pos.File != "" {
			return p.Pos, true
		}
	case refPersona:
		if p := st.Agents[r.name]; p != nil {
			return p.Pos, true
		}
	case refImport:
		if im := st.Imports[r.name]; im != nil && im.Path != "" {
			return story.Pos{File: im.Path, Line: 1, Col: 1}, true
		}
	case refFile:
		if f := findFile(st, path, r.name); f != "" {
			return story.Pos{File: f, Line: 1, Col: 1}, true
		}
	case refRef:
		return refPos(st, path, r.name)
	}
	return story.Pos{}, false
}

// declaredIntent is intent name as the story declares it, else as the
// first state declaring it does (nil: neither does).
func declaredIntent(st *story.Story, name string) *story.Intent {
	if in := st.Intents[name]; in != nil {
		return in
	}
	for _, s := range st.AllStates() {
		if in := s.Intents[name]; in != nil {
			return in
		}
	}
	return nil
}

// intentPos is where intent name is declared (declaredIntent), else in an
// imported child (name prefixed by its alias).
func intentPos(st *story.Story, name string) (story.Pos, bool) {
	if in := declaredIntent(st, name); in != nil {
		return in.Pos, true
	}
	for _, alias := range st.ImportOrder {
		if im := st.Imports[alias]; im != nil && im.Child != nil {
			if in := im.Child.Intents[strings.TrimPrefix(name, alias+"__")]; in != nil {
				return in.Pos, true
			}
		}
	}
	return story.Pos{}, false
}

// refPos is where the $ref written in the file at path points, read
// through the story's project root.
func refPos(st *story.Story, path, ref string) (story.Pos, bool) {
	file, ptr, _ := strings.Cut(ref, "#")
	target := path
	if file != "" {
		target = filepath.Join(filepath.Dir(path), file)
	}
	if st.ProjectRoot == "" {
		return story.Pos{}, false
	}
	root := safefile.NewRoot(st.ProjectRoot)
	defer root.Close()
	b, err := root.ReadFile(absPath(target), maxFile)
	if err != nil {
		return story.Pos{}, false
	}
	line, col := pointerPos(b, ptr)
	return story.Pos{File: target, Line: line, Col: col}, true
}

// findFile resolves a file a story names: against the story directory, its
// prompts/ and schemas/ folders, then the directory of the file naming it.
func findFile(st *story.Story, from, name string) string {
	if name == "" || strings.Contains(name, "{{") {
		return ""
	}
	var cands []string
	if filepath.IsAbs(name) {
		cands = append(cands, name)
	} else {
		cands = append(cands, filepath.Join(st.Dir, name), filepath.Join(st.Dir, "prompts", name),
			filepath.Join(st.Dir, "schemas", name), filepath.Join(filepath.Dir(from), name))
	}
	if st.ProjectRoot == "" {
		return ""
	}
	// Stat through the story's project root: navigation never looks at or
	// points outside it, whatever a link there is swapped for.
	root := safefile.NewRoot(st.ProjectRoot)
	defer root.Close()
	for _, c := range cands {
		if fi, err := root.Stat(absPath(c)); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// pointerPos finds the line and column of a JSON pointer in b, a JSON or
// YAML file's bytes (1,1 when it cannot).
func pointerPos(b []byte, ptr string) (int, int) {
	var doc yaml.Node
	if yamlnode.UnmarshalPlain(b, &doc) != nil || len(doc.Content) == 0 {
		return 1, 1
	}
	n := doc.Content[0]
	for seg := range strings.SplitSeq(strings.Trim(ptr, "/"), "/") {
		if seg == "" {
			continue
		}
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if n.Kind != yaml.MappingNode {
			return n.Line, n.Column
		}
		next := yamlnode.Get(n, seg)
		if next == nil {
			return n.Line, n.Column
		}
		n = next
	}
	return n.Line, n.Column
}

// posLocation is p as an LSP location, its range the token there; the
// file is read through the workspace root holding it (readInside).
func (s *Server) posLocation(p story.Pos) protocol.Location {
	b, _ := s.readInside(absPath(p.File))
	r := tokenRangeIn(lines(string(b)), p.Line, p.Col)
	return protocol.Location{URI: pathURI(absPath(p.File)), Range: r}
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
