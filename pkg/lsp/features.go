package lsp

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	path, st, sp := s.at(p.TextDocumentPositionParams)
	if sp == nil {
		return nil, nil
	}
	pos, ok := locationOf(st, path, classify(st, sp))
	if !ok || !s.inside(absPath(pos.File)) {
		return nil, nil
	}
	return []protocol.Location{s.posLocation(pos)}, nil
}

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	_, st, sp := s.at(p.TextDocumentPositionParams)
	if sp == nil {
		return nil, nil
	}
	md := hoverText(st, classify(st, sp))
	if md == "" {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}}, nil
}

// hoverText describes what r names.
func hoverText(st *story.Story, r ref) string {
	if st == nil {
		return ""
	}
	switch r.kind {
	case refState:
		return stateHover(st, r.name)
	case refWorld:
		return worldHover(st, r.name)
	case refIntent:
		return intentHover(st, r.name)
	case refAlias:
		p := st.AgentPlugins[r.name]
		if p == nil {
			return ""
		}
		return fmt.Sprintf("**agent plugin** %s: %s  \n%s", mdCode(p.Alias), mdText(p.Plugin), lifecycle(p))
	case refPersona:
		p := st.Agents[r.name]
		if p == nil {
			return ""
		}
		out := fmt.Sprintf("**persona** %s", mdCode(p.Name))
		if p.Model != "" {
			out += fmt.Sprintf("  \nmodel: %s", mdCode(p.Model))
		}
		return out
	case refVerb:
		return fmt.Sprintf("**host.agent.%s**: an agent call through the plugin contract (verbs: ask, decide, extract, task, converse)", r.name)
	}
	return ""
}

// stateHover describes a state: its kind, initial child, intents and
// description.
func stateHover(st *story.Story, name string) string {
	sd := st.State(name)
	if sd == nil {
		return ""
	}
	kind := "state"
	switch {
	case sd.Parallel:
		kind = "parallel state"
	case len(sd.Children) > 0:
		kind = "compound state"
	case sd.Terminal:
		kind = "terminal state"
	}
	out := fmt.Sprintf("**%s** %s", kind, mdCode(sd.Path))
	if sd.Initial() != "" {
		out += fmt.Sprintf("  \ninitial: %s", mdCode(sd.Initial()))
	}
	if len(sd.OnNames()) > 0 {
		out += "  \nintents: " + codeList(sd.OnNames())
	}
	if d := strings.TrimSpace(sd.Description); d != "" {
		out += "\n\n" + mdText(d)
	}
	return out
}

// worldHover describes a world variable: its type, default and values.
func worldHover(st *story.Story, name string) string {
	v := st.Var(name)
	if v == nil {
		return ""
	}
	out := fmt.Sprintf("**world** %s: %s", mdCode(v.Name), mdText(cmp.Or(v.Type, "any")))
	if v.HasDefault {
		out += "  \ndefault: " + mdValue(v.Default)
	}
	if len(v.Values) > 0 {
		out += "  \nvalues: " + mdValue(v.Values)
	}
	return out
}

// intentHover describes an intent (the story's, else the first state's
// that declares it): its title, slots and description.
func intentHover(st *story.Story, name string) string {
	in := declaredIntent(st, name)
	if in == nil {
		return fmt.Sprintf("**intent** %s (not declared: slots are free-form)", mdCode(name))
	}
	out := fmt.Sprintf("**intent** %s", mdCode(in.Name))
	if in.Title != "" {
		out += " — " + mdText(in.Title)
	}
	for _, slot := range in.SlotOrder {
		sl := in.Slots[slot]
		typ := cmp.Or(sl.Type, "string")
		req := ""
		if sl.Required {
			req = ", required"
		}
		out += fmt.Sprintf("  \n- %s: %s%s", mdCode(slot), mdText(typ), req)
		if len(sl.Values) > 0 {
			out += " " + mdText(fmt.Sprint(sl.Values))
		}
	}
	if in.Description != "" {
		out += "\n\n" + mdText(in.Description)
	}
	return out
}

// lifecycle says how kitsoki runs an agent plugin (seed 000 §6).
func lifecycle(p *story.AgentPlugin) string {
	switch p.Plugin {
	case "subprocess":
		return fmt.Sprintf("%s is started on the first call, reused for the run, respawned after a crash, stopped at the end", mdCode(strings.Join(append([]string{p.Command}, p.Args...), " ")))
	case "mcp_http":
		return fmt.Sprintf("an MCP service at %s: kitsoki opens one client session per run and never starts or stops it", mdCode(p.Endpoint))
	case "builtin.local_llm":
		if p.Endpoint != "" {
			return fmt.Sprintf("attaches to a running llama-server at %s; never fetches, starts or stops it", mdCode(p.Endpoint))
		}
		return fmt.Sprintf("managed: the pinned llama-server and %s are fetched on first use, started on the first call, stopped at the end", mdCode(p.Model))
	case "builtin.claude_cli", "":
		return "the `claude` CLI, one process per call"
	case "cassette":
		return "recorded answers replayed in process; nothing is started"
	}
	return ""
}

// codeList is xs (not empty) as code spans joined by commas.
func codeList(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = mdCode(x)
	}
	return strings.Join(out, ", ")
}

var (
	ignoreRE = &lazyre.Regexp{Expr: `#\s*kitsoki:ignore\s+([\w-]*)$`}
	keyRE    = &lazyre.Regexp{Expr: `^\s*(?:-\s+)?([\w$]+):\s*["']?([^"'\s]*)$`}
)

func (s *Server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	text, _ := s.text(path)
	ls := lines(text)
	if int(p.Position.Line) >= len(ls) {
		return nil, nil
	}
	line := ls[p.Position.Line]
	before := line[:lineByte(line, p.Position.Character)]
	st := s.storyFor(path)
	items := complete(st, text, int(p.Position.Line), before)
	more := len(items) > s.itemsCap
	if more {
		items = items[:s.itemsCap]
	}
	return protocol.CompletionList{IsIncomplete: more, Items: items}, nil
}

// maxItems bounds the completion items and document symbols one answer
// carries: a story of a million states would otherwise answer with a
// million of each (a message of hundreds of megabytes for the editor). A
// cut completion list says it is incomplete, so the editor asks again as
// the user types.
const maxItems = 5000

// complete lists candidates for the text before the cursor on line.
func complete(st *story.Story, text string, line int, before string) []protocol.CompletionItem {
	if m := ignoreRE.FindStringSubmatch(before); m != nil {
		return completions(ruleIDs(), protocol.CompletionItemKindKeyword, "kitsoki rule")
	}
	if i := strings.LastIndex(before, "host.agent."); i >= 0 && !strings.ContainsAny(before[i:], " }") {
		return completions([]string{"ask", "decide", "extract", "task", "converse", "search"}, protocol.CompletionItemKindMethod, "agent verb")
	}
	if i := strings.LastIndex(before, "world."); i >= 0 && !strings.ContainsAny(before[i:], " }|") {
		return completions(worldKeys(st), protocol.CompletionItemKindVariable, "world key")
	}
	if st == nil {
		return nil
	}
	if fc, k, ok := flowContext(lines(text), line, before); ok {
		// inside flow collections: {target: |}, on: {|}, emit: [a, |]
		keys := keyPath(text, k)
		for _, key := range fc.keys {
			if key != "" {
				keys = append(keys, key)
			}
		}
		last := keys[len(keys)-1]
		switch fc.at {
		case flowValue:
			return completeValue(st, last, statePathOf(keys))
		case flowKey:
			if last == "on" {
				return intentCompletions(st)
			}
		case flowItem:
			if intentList(append(keys, "[]")) {
				return intentCompletions(st)
			}
		}
		return nil
	}
	keys := keyPath(text, line)
	statePath := statePathOf(keys)
	if m := keyRE.FindStringSubmatch(before); m != nil {
		if items := completeValue(st, m[1], statePath); items != nil {
			return items
		}
	}
	if len(keys) > 0 && keys[len(keys)-1] == "on" && strings.TrimSpace(before) == strings.TrimLeft(before, " ") && !strings.Contains(before, ":") {
		return intentCompletions(st)
	}
	if itemRE.MatchString(before) && intentList(append(keys, "[]")) {
		return intentCompletions(st)
	}
	return nil
}

// completions are the completion items of labels.
func completions(labels []string, k protocol.CompletionItemKind, detail string) []protocol.CompletionItem {
	out := make([]protocol.CompletionItem, 0, len(labels))
	for _, l := range labels {
		out = append(out, protocol.CompletionItem{Label: l, Kind: new(k), Detail: new(detail)})
	}
	return out
}

func intentCompletions(st *story.Story) []protocol.CompletionItem {
	return completions(IntentNames(st), protocol.CompletionItemKindEvent, "intent")
}

// itemRE is a block sequence item being typed ("  - appr").
var itemRE = &lazyre.Regexp{Expr: `^\s*-\s+[\w.-]*$`}

// completeValue lists the candidates for the value of key, written in
// the state at statePath; nil when key takes no names.
func completeValue(st *story.Story, key, statePath string) []protocol.CompletionItem {
	switch key {
	case "target", "on_error", "to", "root":
		return completions(targets(st, statePath), protocol.CompletionItemKindReference, "state")
	case "initial":
		if sd := st.State(statePath); sd != nil {
			var names []string
			for _, c := range sd.Children {
				names = append(names, c.Name)
			}
			return completions(names, protocol.CompletionItemKindReference, "child state")
		}
	case "agent":
		return completions(slices.Sorted(maps.Keys(st.AgentPlugins)), protocol.CompletionItemKindModule, "agent plugin")
	case "emit_intent", "default_intent", "intent":
		return intentCompletions(st)
	case "invoke":
		return completions([]string{"host.run", "host.agent.ask", "host.agent.decide", "host.agent.extract", "host.agent.task", "host.agent.converse", "host.agent.search",
			"host.artifacts_dir", "host.inbox.add", "host.append_to_file", "host.transport.post", "host.starlark.run"}, protocol.CompletionItemKindFunction, "host handler")
	}
	return nil
}

// intentList reports whether keys (ending with "[]") are an item of a
// list of intent names: a transition's emit:, a state's menu:, the story's
// exports.intents, an import's intents.export / intents.import.
func intentList(keys []string) bool {
	n := len(keys)
	if n < 2 || keys[n-1] != "[]" {
		return false
	}
	switch keys[n-2] {
	case "emit", "menu":
		return true
	case "intents":
		return n >= 3 && keys[n-3] == "exports"
	case "export", "import":
		return n >= 3 && keys[n-3] == "intents"
	}
	return false
}

func ruleIDs() []string {
	var ids []string
	for _, r := range validate.Rules() { // the one list: story, flow fixture, eval, profile and MCP rules
		ids = append(ids, r.ID)
	}
	return ids
}

func worldKeys(st *story.Story) []string {
	if st == nil {
		return nil
	}
	var out []string
	for _, v := range st.World {
		out = append(out, v.Name)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// IntentNames is every intent name st knows, sorted: its library's, each
// state's local ones and each on: entry's but the "*" catch-all. The
// editor's completion and the shell's (kitsoki run --intent) offer it.
func IntentNames(st *story.Story) []string {
	set := map[string]bool{}
	for n := range st.Intents {
		set[n] = true
	}
	for _, sd := range st.AllStates() {
		for n := range sd.Intents {
			set[n] = true
		}
		for _, n := range sd.OnNames() {
			if n != "*" {
				set[n] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// targets lists the states a target written in from can name: every
// absolute path, the relative ../ forms of siblings, ".", and exits.
func targets(st *story.Story, from string) []string {
	var out []string
	for _, sd := range st.AllStates() {
		out = append(out, sd.Path)
	}
	if from != "" {
		segs := strings.Split(from, ".")
		if sd := st.State(strings.Join(segs[:len(segs)-1], ".")); sd != nil && len(segs) > 1 {
			for _, c := range sd.Children {
				out = append(out, "../"+c.Name)
			}
		}
	}
	out = append(out, ".")
	for name := range st.Exits {
		out = append(out, "@exit:"+name)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// keyPath is the chain of mapping keys enclosing line, read by
// indentation so it works on a buffer that does not parse yet.
func keyPath(text string, line int) []string {
	ls := lines(text)
	if line >= len(ls) {
		return nil
	}
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	cur := indent(ls[line])
	if strings.TrimSpace(ls[line]) == "" {
		cur = 1 << 30
	}
	var keys []string
	for i := line - 1; i >= 0; i-- {
		l := ls[i]
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		ind := indent(l)
		if ind >= cur {
			continue
		}
		keyInd := ind
		for strings.HasPrefix(t, "- ") {
			// a key after "- " sits deeper than the dash: when it is not
			// above the line, it is a sibling of the line's key
			t = strings.TrimLeft(t[2:], " ")
			keyInd = len(l) - len(t)
		}
		if k, _, ok := strings.Cut(t, ":"); ok && keyInd < cur {
			keys = append([]string{strings.Trim(k, `"' `)}, keys...)
		}
		cur = ind
		if ind == 0 {
			break
		}
	}
	return keys
}

// statePathOf is the dotted path of the state whose block the mapping keys
// (from the document root) lead into: the key after each "states" key.
func statePathOf(keys []string) string {
	var segs []string
	for i := 0; i+1 < len(keys); i++ {
		if keys[i] == "states" && keys[i+1] != "[]" {
			segs = append(segs, keys[i+1])
		}
	}
	return strings.Join(segs, ".")
}

func (s *Server) documentSymbol(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	st := s.storyFor(path)
	if st == nil {
		return []protocol.DocumentSymbol{}, nil
	}
	text, _ := s.text(path)
	ls := lines(text) // once, not once per symbol
	count := 0        // symbols so far, at most maxItems
	var build func(ss []*story.State) []protocol.DocumentSymbol
	build = func(ss []*story.State) []protocol.DocumentSymbol {
		out := []protocol.DocumentSymbol{}
		for _, sd := range ss {
			if count >= s.itemsCap {
				break
			}
			inFile := absPath(sd.Pos.File) == path
			if inFile {
				count++ // before its children, so the count stays within maxItems
			}
			children := build(sd.Children)
			if !inFile {
				out = append(out, children...)
				continue
			}
			r := tokenRangeIn(ls, sd.Pos.Line, sd.Pos.Col)
			kind := protocol.SymbolKindClass
			if sd.Terminal {
				kind = protocol.SymbolKindEnumMember
			}
			out = append(out, protocol.DocumentSymbol{Name: sd.Name, Detail: new(sd.Path), Kind: kind, Range: r, SelectionRange: r, Children: children})
		}
		return out
	}
	syms := build(st.States)
	add := func(name string, kind protocol.SymbolKind, pos story.Pos) {
		if absPath(pos.File) == path && count < s.itemsCap {
			count++
			r := tokenRangeIn(ls, pos.Line, pos.Col)
			syms = append(syms, protocol.DocumentSymbol{Name: name, Kind: kind, Range: r, SelectionRange: r})
		}
	}
	for _, name := range st.IntentOrder {
		if in := st.Intents[name]; in != nil {
			add(name, protocol.SymbolKindEvent, in.Pos)
		}
	}
	for _, v := range st.World {
		add(v.Name, protocol.SymbolKindVariable, v.Pos)
	}
	return syms, nil
}

var didYouMeanRE = &lazyre.Regexp{Expr: "did you mean `([^`]+)`\\?"}

// codeAction offers the "did you mean" fix of each diagnostic in range.
func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	actions := []protocol.CodeAction{}
	for _, d := range p.Context.Diagnostics {
		m := didYouMeanRE.FindStringSubmatch(d.Message)
		if m == nil {
			continue
		}
		edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{
			p.TextDocument.URI: {{Range: d.Range, NewText: m[1]}},
		}}
		actions = append(actions, protocol.CodeAction{
			Title: fmt.Sprintf("Replace with %s", m[1]), Kind: new(protocol.CodeActionKindQuickFix), Diagnostics: []protocol.Diagnostic{d},
			IsPreferred: new(true), Edit: &edit,
		})
	}
	return actions, nil
}
