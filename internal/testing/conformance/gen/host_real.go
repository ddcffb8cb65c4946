package main

// -kind host -real writes stories whose fixtures name host_bindings, so
// the built-in handlers run for real (flow-format.md §4.5) instead of the
// stubs the host kind feeds: host.run in its shell and argv forms with
// every timeout, cwd and fail_on_error form, host.artifacts_dir,
// host.append_to_file, host.inbox.add, host.transport.post and
// host.jobs.answer_clarification, the IDE and chat built-ins upstream
// answers with no IDE or chat store, host.agent.search with no embedder,
// each with good and bad arguments,
// binds of every result key (paths, the whole result, templates) and
// on_error redirects, from arms and on_enter, in a leaf, a compound's
// child (../ redirects) and after a set. The draws come from their own
// random source, so the host kind's stories for a seed stay what they
// were. Real handlers write files (.artifacts/, the append_to_file
// threads) into the cwd: run each engine on its own fresh copy of the
// story at the same path, so the second run does not see the first's
// files and the absolute paths in a result agree (compare.sh does).
//
// Known differences it draws around: YAML integer literals reach
// upstream's handlers as uint64 and fail (docs/compat/hosts.md), so every
// integer here is quoted or rendered from a template.

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
)

// writeHostReal writes n real-handler host stories, story i from seed+i.
func writeHostReal(dir string, n int, seed uint64, bindings bool) error {
	return writeGenStories(dir, n, seed, 0x2545f4914f6cdd1d, 0x6a09e667f3bcc909, "genr", (*gen).hostRealStory, bindings)
}

// writeGenStories writes n stories of one gen kind, story i from seed+i:
// its own random source (s^x, s+y), so the other kinds' stories for a
// seed stay what they were, and the id prefix-<seed>; bindings redraws
// the fixtures' host_bindings (bindings.go).
func writeGenStories(dir string, n int, seed, x, y uint64, prefix string, story func(*gen, string) []agentFile, bindings bool) error {
	for i := range n {
		s := seed + uint64(i)
		g := &gen{rnd: rand.New(rand.NewPCG(s^x, s+y))}
		files := story(g, fmt.Sprintf("%s-%d", prefix, s))
		if bindings {
			files = newBindGen(s).apply(files)
		}
		if err := writeFiles(filepath.Join(dir, fmt.Sprintf("%03d", i)), files); err != nil {
			return err
		}
	}
	return nil
}

// hostRealSlots are the slot values the turns send: shell quoting,
// JSON-looking text, empty.
var hostRealSlots = []any{"a b", "", "x'y", `{"q": 1}`, "1e3", "日本", "t1", "up/x", "-n"}

func (g *gen) hostRealStory(id string) []agentFile {
	world := m{
		"n":     m{"type": "int", "default": 0},
		"s":     m{"type": "string", "default": ""},
		"o":     m{"type": "any", "default": ""},
		"c":     m{"type": "any", "default": 0},
		"j":     m{"type": "any", "default": m{}},
		"thr":   m{"type": "string", "default": g.pick("t1", "dir/t2", "x.json")},
		"items": m{"type": "list", "default": []any{"a", "b"}},
	}
	if g.chance(50) {
		world["last_error"] = m{"type": "string", "default": ""}
	}
	intents := m{}
	var names []string
	for i := range 4 + g.rnd.IntN(3) {
		name := fmt.Sprintf("i%d", i)
		names = append(names, name)
		intents[name] = m{"description": name, "slots": m{"t": m{"type": "string"}}}
	}
	intents["back"] = m{"description": "back"}
	states := m{
		"s":      m{"view": g.hostRealView("S")},
		"comp":   m{"initial": "a", "view": g.hostRealView("COMP")},
		"failed": m{"view": g.hostRealView("FAILED")},
	}
	kids := m{
		"a": m{"view": g.hostRealView("A")},
		"b": m{"view": g.hostRealView("B")},
	}
	states["comp"].(m)["states"] = kids
	rooms := map[string]m{"s": states["s"].(m), "comp": states["comp"].(m), "comp.a": kids["a"].(m), "comp.b": kids["b"].(m), "failed": states["failed"].(m)}
	for _, path := range []string{"s", "comp", "comp.a", "comp.b", "failed"} {
		st := rooms[path]
		if g.chance(40) {
			st["on_enter"] = g.hostRealCalls(path, 2)
		}
		on := m{"back": []any{m{"target": g.pick("s", "failed")}}}
		for _, in := range names {
			arm := m{"target": g.pick(".", ".", "s", "comp", "comp.b", "failed")}
			if g.chance(85) {
				arm["effects"] = g.hostRealCalls(path, 3)
			}
			on[in] = []any{arm}
		}
		st["on"] = on
	}
	app := m{
		"app": m{"id": id, "version": "0.1.0"},
		"hosts": []any{"host.run", "host.artifacts_dir", "host.append_to_file", "host.inbox.add", "host.transport.post", "host.jobs.answer_clarification",
			"host.ide.get_diagnostics", "host.ide.get_selection", "host.ide.get_open_editors", "host.ide.open_file", "host.ide.open_diff", "host.ide.nope",
			"host.chat.list", "host.chat.create", "host.chat.resolve_ref",
			"host.gh.ticket.get", "host.cypilot_artifacts.list", "host.diff.open", "host.slidey.render", "host.contact_sheet", "host.video.frame",
			"host.local_files.ticket.search", "host.local_files.ticket.list_mine", "host.local_files.ticket.get", "host.agent.search"},
		"world":   world,
		"intents": intents,
		"root":    "s",
		"states":  states,
	}
	files := []agentFile{{"app.yaml", app}, {"sub/keep.txt", "keep\n"}}
	for i := range 1 + g.rnd.IntN(2) {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.hostRealFixture(names)})
	}
	return files
}

// realHostView is a real-host story's view of state tag: the world keys a
// call binds, its errors, or the same as a kv block; mid is the kind's
// second line (host_vcs.go's names other keys).
func (g *gen) realHostView(tag, mid string) any {
	switch g.rnd.IntN(3) {
	case 0:
		return tag + " o={{ world.o }} c={{ world.c }} le={{ world.last_error }}"
	case 1:
		return tag + " " + mid
	default:
		return []any{m{"heading": tag}, m{"kv": m{"pairs": m{"o": "{{ world.o }}", "c": "{{ world.c }}", "err": "{{ world.last_error }}"}}}}
	}
}

func (g *gen) hostRealView(tag string) any {
	return g.realHostView(tag, "j={{ world.j }} n={{ world.n }} he={{ world.host_error }}")
}

// hostRealCalls is a chain of one to n real calls, sometimes with a set
// or an increment between them.
func (g *gen) hostRealCalls(path string, n int) []any {
	var out []any
	for range 1 + g.rnd.IntN(n) {
		if g.chance(25) {
			out = append(out, g.pickM(
				m{"set": m{"s": "{{ world.o }}"}},
				m{"increment": m{"n": 1}},
				m{"set": m{"thr": "t{{ world.n }}"}},
				m{"set": m{"o": ""}}))
		}
		out = append(out, g.hostRealCall(path))
	}
	return out
}

// hostRealArg is a value for a handler argument: text, templates, a
// quoted number, booleans, null, a float, a map, a list.
func (g *gen) hostRealArg() any {
	switch g.rnd.IntN(12) {
	case 0:
		return "{{ slots.t }}"
	case 1:
		// not "{{ world.n }}" alone: the default's YAML integer is a
		// uint64 upstream, which host.run refuses (a known difference)
		return "n{{ world.n }}"
	case 2:
		return "3"
	case 3:
		return true
	case 4:
		return false
	case 5:
		return nil
	case 6:
		return 2.5
	case 7:
		return m{"k": "v", "n": "{{ world.n }}"}
	case 8:
		return []any{"a", "{{ slots.t }}"}
	case 9:
		return "{{ world.items }}"
	case 10:
		return ""
	default:
		return "x y"
	}
}

func (g *gen) hostRealCall(path string) m {
	var e m
	switch g.rnd.IntN(11) {
	case 10:
		// built-ins kitsoki has no real counterpart for: no IDE, no chat
		// store in a flow (conformance ide-absent, chat-store-absent-more);
		// not host.chat.drive, whose dispatched args upstream adds a random
		// __origin_session_id to (docs/compat/hosts.md); the CLI-backed ones
		// without their programs (builtins-cli-absent) and the ticket
		// tracker with no issues/ directory (builtins-local-tickets),
		// host.agent.search with no embedder (search-no-embedder)
		ns := g.pick("host.ide.get_diagnostics", "host.ide.get_selection", "host.ide.get_open_editors", "host.ide.open_file",
			"host.ide.open_diff", "host.chat.list", "host.chat.create", "host.chat.resolve_ref", "host.ide.nope",
			"host.gh.ticket.get", "host.cypilot_artifacts.list", "host.diff.open", "host.slidey.render", "host.contact_sheet", "host.video.frame",
			"host.local_files.ticket.search", "host.local_files.ticket.list_mine", "host.local_files.ticket.get", "host.agent.search")
		e = m{"invoke": ns, "with": m{"path": "{{ slots.t }}", "chat_id": "c{{ world.n }}"},
			"bind": g.hostRealBinds("c", "connected", "j", "diagnostics", "o", "text", "s", "ok", "j", "editors")}
	case 0, 1, 2:
		with := m{}
		if g.chance(65) {
			with["cmd"] = g.pick("echo hi", "printf '%s' '{{ slots.t }}'", `echo '{"a": {"b": [1, 2.5, null]}}'`,
				"echo x; echo '[1, 2]'", "exit 3", "echo err >&2; exit 2", "echo '{bad'", "true",
				"echo {{ world.n }}", `printf 'a\n{"k": "v"}\n'`, "echo 1.50", `echo '"s"'`, "echo null",
				"printf ''", "cat keep.txt", "echo {{ world.o }}", "echo '{\"x\": 1}' '{\"y\": 2}'", "exit 0")
		} else {
			with["cmd"] = g.pick("echo", "printf", "true", "false", "nosuchbin-kt", "cat")
			var args []any
			for range g.rnd.IntN(4) {
				args = append(args, g.hostRealArg())
			}
			if args == nil && g.chance(50) {
				with["args"] = []any{}
			} else {
				with["args"] = args
			}
		}
		if g.chance(30) {
			with["timeout"] = g.pickAny("5s", "10", 5.5, "1m", "0s", "-1", "abc", "{{ world.n + 5 }}", true)
		}
		if g.chance(25) {
			with["cwd"] = g.pick("sub", "nosuchdir", ".", "{{ slots.t }}")
		}
		if g.chance(40) {
			with["fail_on_error"] = g.pickAny(true, false, "true", "{{ world.n > 0 }}", "yes")
		}
		e = m{"invoke": "host.run", "with": with,
			"bind": g.hostRealBinds("o", "stdout", "c", "exit_code", "j", "stdout_json", "s", "stdout_json_parse_error",
				"o", "ok", "j", "stdout_json.a.b[1]", "c", "timed_out", "j", ".")}
	case 3, 4:
		with := m{}
		if g.chance(90) {
			with["thread"] = g.pickAny("{{ world.thr }}", "t1", "a/b", "x.json", "", "{{ slots.t }}", "t-{{ world.n }}", nil)
		}
		if g.chance(90) {
			with["body"] = g.pickAny("hello {{ world.n }}", m{"a": "1", "b": []any{"x", true}}, []any{"l", 2.5}, "", "{{ world.items }}", nil, "{{ slots.t }}")
		}
		if g.chance(40) {
			with["title"] = g.pickAny("T", "", "{{ slots.t }}")
		}
		if g.chance(30) {
			with["phase_id"] = g.pickAny("p1", "", "{{ world.n }}")
		}
		if g.chance(35) {
			with["mode"] = g.pickAny("append", "replace", "bogus", "")
		}
		if g.chance(15) {
			with["artifacts_root"] = g.pick("out", "sub/arts")
		}
		e = m{"invoke": "host.artifacts_dir", "with": with,
			"bind": g.hostRealBinds("o", "message_id", "c", "ok", "j", ".", "s", "path")}
	case 5, 6:
		with := m{}
		if g.chance(90) {
			with["thread"] = g.pickAny("bugs/{{ world.thr }}.md", "notes", "b-{{ world.n }}.md", "", "{{ slots.t }}.md", nil)
		}
		if g.chance(90) {
			with["body"] = g.pickAny("body {{ world.n }}", m{"k": "v"}, "", "{{ slots.t }}", []any{"a"})
		}
		if g.chance(40) {
			with["author"] = g.pickAny("me", "", "{{ slots.t }}")
		}
		if g.chance(40) {
			with["title"] = g.pickAny("T", "")
		}
		if g.chance(30) {
			with["phase_id"] = g.pickAny("p", "{{ world.n }}")
		}
		e = m{"invoke": "host.append_to_file", "with": with,
			"bind": g.hostRealBinds("o", "message_id", "c", "ok", "j", ".")}
	case 7:
		with := m{}
		if g.chance(85) {
			with["title"] = g.pickAny("note {{ world.n }}", "", "  ", "{{ slots.t }}")
		}
		if g.chance(85) {
			with["body"] = g.pickAny("b", "", "{{ world.o }}", m{"k": "v"})
		}
		if g.chance(40) {
			with["kind"] = g.pickAny("warn", "info", "", "bogus")
		}
		if g.chance(30) {
			with["thread"] = "th"
		}
		if g.chance(30) {
			with["state"] = g.pickAny("s", "{{ slots.t }}")
		}
		e = m{"invoke": "host.inbox.add", "with": with,
			"bind": g.hostRealBinds("c", "ok", "o", "persisted", "s", "note", "j", ".")}
	case 8:
		with := m{"body": g.pickAny("b", m{"k": "v"})}
		if g.chance(70) {
			with["transport"] = g.pick("slack", "")
		}
		if g.chance(70) {
			with["thread"] = "th"
		}
		e = m{"invoke": "host.transport.post", "with": with, "bind": g.hostRealBinds("o", "message_id", "j", ".")}
	default:
		with := m{}
		if g.chance(70) {
			with["job_id"] = g.pickAny("nope", "", "{{ slots.t }}")
		}
		if g.chance(70) {
			with["answer"] = g.pickAny("yes", "", "{{ slots.t }}")
		}
		e = m{"invoke": "host.jobs.answer_clarification", "with": with, "bind": g.hostRealBinds("o", "answered", "s", "job_id")}
	}
	if g.chance(25) {
		e["id"] = g.pick("r1", "r-{{ world.n }}")
	}
	if g.chance(30) {
		if path == "comp.a" || path == "comp.b" {
			e["on_error"] = g.pick("../b", "../a", "failed", "comp", ".")
		} else {
			e["on_error"] = g.pick("failed", "comp", "comp.b", ".")
		}
	}
	if g.chance(10) {
		e["when"] = g.pick("world.n > 0", "world.o == ''")
	}
	return e
}

// hostRealBinds binds some of the world key/result path pairs given,
// sometimes through a template.
func (g *gen) hostRealBinds(kv ...string) m {
	b := g.hostBinds(kv...)
	if g.chance(20) {
		b["s"] = g.pick("{{ result.ok }}-{{ result.exit_code }}", "{{ result }}", "{{ world.n }}:{{ result.message_id }}")
	}
	return b
}

func (g *gen) pickAny(xs ...any) any { return xs[g.rnd.IntN(len(xs))] }

func (g *gen) hostRealFixture(names []string) m {
	f := m{"test_kind": "flow", "app": "../app.yaml", "use_orchestrator": true,
		"host_bindings": m{"host.run": "host.run"}}
	if g.chance(80) {
		f["initial_state"] = "s"
	}
	if g.chance(25) {
		f["initial_world"] = g.pickM(m{"n": 2}, m{"thr": "w"}, m{"o": "pre"})
	}
	if g.chance(15) {
		// a stub still replaces one real handler
		f["host_handlers"] = m{g.pick("host.run", "host.inbox.add", "host.artifacts_dir"): m{"data": m{"ok": true, "stdout": "stub"}}}
	}
	var turns []any
	for range 3 + g.rnd.IntN(6) {
		if g.chance(10) {
			turns = append(turns, m{"intent": m{"name": "back"}})
			continue
		}
		turns = append(turns, m{"intent": m{"name": g.pick(names...), "slots": m{"t": g.pickAny(hostRealSlots...)}}})
	}
	f["turns"] = turns
	if g.chance(60) {
		f["expect_files"] = g.hostRealFileExpects()
	}
	return f
}

// hostRealFileExpects draws expect_files entries for the files the real
// handlers may have written (append_to_file threads, .artifacts/), the
// story's own files and ones nobody writes, with content_matches regexes
// that match, do not, or do not compile, and must_not_exist. No path
// leaves the story directory: upstream reads any path, kitsoki nothing
// outside the project (docs/compat/flow-format.md).
func (g *gen) hostRealFileExpects() []any {
	var out []any
	for range 1 + g.rnd.IntN(3) {
		// a relative path is read from the fixture's directory (flows/): the
		// handlers write beside app.yaml, one level up
		e := m{"path": g.pick("../bugs/t1.md", "../bugs/t0.md", "../b-0.md", "../notes", "../.artifacts/t1.md", "../.artifacts", "../sub/keep.txt", "../app.yaml", "../nope.txt", "../sub", "bugs/t1.md", "app.yaml")}
		switch g.rnd.IntN(4) {
		case 0:
			e["content_matches"] = g.pick("body", "hello 0", "^$", "(", "k: v", ".", "(?m)^## ")
		case 1:
			e["must_not_exist"] = g.pickAny(true, false)
		case 2:
			e["content_matches"], e["must_not_exist"] = g.pick("body", "x"), true
		}
		out = append(out, e)
	}
	return out
}
