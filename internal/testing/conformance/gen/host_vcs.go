package main

// -kind host -real -vcs writes stories whose fixtures name host_bindings
// and call the built-ins that work on a repository, a ticket tree and a Go
// module the story makes itself (a `setup` intent's host.run, in the
// fixture's working directory): host.git (branch, diff, commit, push to a
// bare remote beside it, the pull-request ops gh answers absent, missing
// and unknown ops), host.git_worktree (create, list, get, sync,
// cleanup_scan, cleanup_apply given a scan's candidates back),
// host.local (build, run_tests), host.local_files.ticket (search,
// list_mine, get, comment, transition) and host.workspace_manager.get (no
// program on PATH), reached by exact name, by prefix (host.git.commit) and
// through an iface (iface.vcs.diff, iface.ticket.get, iface.workspace.list),
// with good and bad arguments and workdirs, bound and unbound, in a leaf,
// a compound's child, on_enter, and as a background job (the last call of
// a stay arm, so nothing of its turn races it; each turn is followed by an
// advance that lands it, as a process job lands on upstream's park
// barrier). Only results the same on every run are bound: no commit time,
// no comment time, no go test log (its timings). The draws come from
// their own random source, so the other kinds' stories for a seed stay
// what they were.
//
// Run with compare.sh, which fixes git's dates and configuration for
// both engines so commits agree, and leaves .git directories out of the
// file comparison (an index holds file times).
//
// Known differences it draws around (docs/compat/hosts.md): a branch,
// base, remote or worktree name starting with "-" (refused here, an
// option to upstream's git) and a go option as host.local's target.

import "fmt"

// writeHostVCS writes n repository host stories, story i from seed+i.
func writeHostVCS(dir string, n int, seed uint64, bindings bool) error {
	return writeGenStories(dir, n, seed, 0x5851f42d4c957f2d, 0x14057b7ef767814f, "genv", (*gen).hostVCSStory, bindings)
}

// hostVCSSetup makes, in the working directory, the repository r (branch
// main, one commit, its bare remote rr.git as origin), tickets under
// issues/ and the Go module m with one passing test.
const hostVCSSetup = "git init -q -b main r && git init -q --bare rr.git && cd r && git config user.email k@example.com && git config user.name k" +
	" && git remote add origin ../rr.git && echo a > a.txt && git add a.txt && git commit -q -m init && cd .." +
	" && mkdir -p issues/bugs issues/features m" +
	` && printf -- '---\ntitle: Crash on start\nstatus: open\nassignee: me\nseverity: high\n---\nIt crashes.\n' > issues/bugs/B-1.md` +
	` && printf '# Dark mode\n\nPlease.\n' > issues/features/F-2.md` +
	` && printf 'module m\n\ngo 1.21\n' > m/go.mod && printf 'package m\n\nfunc A() int { return 1 }\n' > m/m.go` +
	` && printf 'package m\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n' > m/m_test.go`

func (g *gen) hostVCSStory(id string) []agentFile {
	world := m{
		"n":     m{"type": "int", "default": 0},
		"s":     m{"type": "string", "default": ""},
		"o":     m{"type": "any", "default": ""},
		"c":     m{"type": "any", "default": 0},
		"j":     m{"type": "any", "default": m{}},
		"thr":   m{"type": "string", "default": "t1"},
		"items": m{"type": "list", "default": []any{"a", "b"}},
	}
	if g.chance(50) {
		world["last_error"] = m{"type": "string", "default": ""}
	}
	intents := m{"back": m{"description": "back"}, "setup": m{"description": "setup"}}
	var names []string
	for i := range 5 + g.rnd.IntN(3) {
		name := fmt.Sprintf("i%d", i)
		names = append(names, name)
		intents[name] = m{"description": name, "slots": m{"t": m{"type": "string"}}}
	}
	states := m{
		"s":      m{"view": g.hostVCSView("S")},
		"comp":   m{"initial": "a", "view": g.hostVCSView("COMP")},
		"failed": m{"view": g.hostVCSView("FAILED")},
	}
	kids := m{"a": m{"view": g.hostVCSView("A")}, "b": m{"view": g.hostVCSView("B")}}
	states["comp"].(m)["states"] = kids
	rooms := map[string]m{"s": states["s"].(m), "comp": states["comp"].(m), "comp.a": kids["a"].(m), "comp.b": kids["b"].(m), "failed": states["failed"].(m)}
	jobs := false
	for _, path := range []string{"s", "comp", "comp.a", "comp.b", "failed"} {
		st := rooms[path]
		if g.chance(30) {
			st["on_enter"] = g.hostVCSCalls(path, 2, false)
		}
		on := m{
			"back":  []any{m{"target": g.pick("s", "failed")}},
			"setup": []any{m{"target": ".", "effects": []any{m{"invoke": "host.run", "with": m{"cmd": hostVCSSetup}, "bind": m{"c": "exit_code"}}}}},
		}
		for _, in := range names {
			arm := m{"target": g.pick(".", ".", "s", "comp", "comp.b", "failed")}
			bg := arm["target"] == "." && g.chance(30)
			if g.chance(85) || bg {
				fx := g.hostVCSCalls(path, 3, false)
				if bg {
					fx = append(fx, g.hostVCSCalls(path, 1, true)...)
					jobs = true
				}
				arm["effects"] = fx
			}
			on[in] = []any{arm}
		}
		st["on"] = on
	}
	app := m{
		"app": m{"id": id, "version": "0.1.0"},
		"hosts": []any{"host.run", "host.git", "host.git.branch", "host.git.diff", "host.git.commit", "host.git.push", "host.git.open_pr",
			"host.git_worktree", "host.git_worktree.create", "host.git_worktree.list", "host.local", "host.local.build",
			"host.local_files.ticket", "host.local_files.ticket.comment", "host.local_files.ticket.transition", "host.workspace_manager.get"},
		"host_interfaces": m{
			"vcs": m{"description": "branch, commit, PR", "default": "host.git", "operations": m{
				"diff":   m{"input": m{"workdir": "string"}, "output": m{"diff": "string"}},
				"commit": m{"input": m{"message": "string"}, "output": m{"sha": "string"}},
			}},
			"ticket": m{"description": "tickets", "default": "host.local_files.ticket", "operations": m{
				"get":     m{"input": m{"id": "string"}, "output": m{"title": "string"}},
				"comment": m{"input": m{"id": "string", "body": "string"}, "output": m{"comment_id": "string"}},
			}},
			"workspace": m{"description": "worktrees", "default": "host.git_worktree", "operations": m{
				"list": m{"input": m{"repo": "string"}, "output": m{"workspaces": "list"}},
			}},
		},
		"world":   world,
		"intents": intents,
		"root":    "s",
		"states":  states,
	}
	files := []agentFile{{"app.yaml", app}}
	for i := range 1 + g.rnd.IntN(2) {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.hostVCSFixture(names, jobs)})
	}
	return files
}

func (g *gen) hostVCSView(tag string) any {
	return g.realHostView(tag, "s={{ world.s }} n={{ world.n }} he={{ world.host_error.message }}")
}

// hostVCSCalls is a chain of one to n calls, sometimes with a host.run
// that edits the repository or a set between them; bg makes each a
// background job with an on_complete.
func (g *gen) hostVCSCalls(path string, n int, bg bool) []any {
	var out []any
	for range 1 + g.rnd.IntN(n) {
		if !bg && g.chance(25) {
			out = append(out, g.pickM(
				m{"invoke": "host.run", "with": m{"cmd": g.pick("echo {{ world.n }} >> r/a.txt", "echo x > r/c.txt", "rm -f r/c.txt",
					"git -C r checkout -q main", "git -C r branch --show-current", "git -C r log --format=%s", "echo z > r/.worktrees/w1/z.txt",
					"git -C r status --porcelain")}, "bind": m{"s": "stdout"}},
				m{"set": m{"thr": "t{{ world.n }}"}},
				m{"increment": m{"n": 1}}))
		}
		e := g.hostVCSCall(path)
		if bg {
			e["background"] = true
			delete(e, "on_error")
			oc := []any{m{"set": m{"c": "{{ world.last_job_status }}"}}}
			if g.chance(50) {
				oc = append(oc, m{"set": m{"o": "{{ world.last_job_error }}"}})
			}
			e["on_complete"] = oc
		}
		out = append(out, e)
	}
	return out
}

// hostVCSWorkdir is a workdir or repo argument: the repository, none
// (the working directory, no checkout), a directory that is none, a
// worktree, a template.
func (g *gen) hostVCSWorkdir() any {
	return g.pickAny("r", "r", "r", "", "nodir", "r/.worktrees/w1", "{{ slots.t }}", "m", nil, 3)
}

func (g *gen) hostVCSCall(path string) m {
	var e m
	// host.local is rare: each go run costs a second
	switch g.rnd.IntN(20) {
	case 0, 1, 2, 3, 4, 5:
		e = g.hostVCSGit()
	case 6, 7, 8, 9:
		e = g.hostVCSWorktree()
	case 10:
		with := m{"op": g.pickAny("build", "build", "run_tests", "remote_status", "", "lint", nil)}
		if g.chance(80) {
			with["workdir"] = g.pickAny("m", "m", "nodir", "r")
		}
		if with["op"] == "run_tests" && with["workdir"] == "m" {
			// go test's log holds its timings, or "(cached)" on the
			// second engine's run: only its failures are drawn
			with["workdir"] = "r"
		}
		if g.chance(20) {
			with["target"] = g.pick("./...", "-run=TestA")
		}
		ns := "host.local"
		if g.chance(30) {
			ns, with["op"] = "host.local.build", nil
		}
		e = m{"invoke": ns, "with": with, "bind": g.hostBinds("o", "ok", "c", "passed", "n", "failed")}
		if with["op"] == "build" || ns == "host.local.build" {
			e["bind"].(m)["s"] = "log"
		}
	case 11, 12, 13, 14, 15, 16, 17:
		e = g.hostVCSTicket()
	default:
		e = m{"invoke": "host.workspace_manager.get", "with": m{"workspace_id": g.pickAny("w1", "", nil)}, "bind": g.hostBinds("o", "path")}
	}
	if g.chance(25) {
		delete(e, "bind")
	}
	if g.chance(20) {
		e["id"] = g.pick("r1", "r-{{ world.n }}")
	}
	if g.chance(30) {
		if path == "comp.a" || path == "comp.b" {
			e["on_error"] = g.pick("../b", "failed", ".")
		} else {
			e["on_error"] = g.pick("failed", "comp.b", ".")
		}
	}
	return e
}

func (g *gen) hostVCSGit() m {
	op := g.pickAny("branch", "branch", "diff", "diff", "commit", "commit", "push", "open_pr", "pr_status", "pr_comment", "", "merge", nil)
	with := m{"op": op}
	if g.chance(85) {
		with["workdir"] = g.hostVCSWorkdir()
	}
	var bind m
	switch op {
	case "branch":
		with["name"] = g.pickAny("b1", "b{{ world.n }}", "main", "", "{{ slots.t }}")
		if g.chance(50) {
			with["base"] = g.pickAny("main", "nope", "b1", "")
		}
		bind = g.hostBinds("o", "ok", "s", "branch")
	case "diff":
		bind = g.hostBinds("s", "diff", "j", "files", "c", "{{ len(result.files ?? []) }}")
	case "commit":
		with["message"] = g.pickAny("m {{ world.n }}", "", "{{ slots.t }}", nil)
		switch g.rnd.IntN(3) {
		case 0:
			with["stage_all"] = g.pickAny(true, true, "true", false)
		case 1:
			with["files"] = g.pickAny([]any{"a.txt"}, []any{"c.txt", "a.txt"}, []any{"nope.txt"}, "a.txt", []any{})
		}
		bind = g.hostBinds("o", "ok", "s", "sha", "j", "skipped_reason", "c", "{{ len(result.sha ?? '') }}")
	case "push":
		if g.chance(50) {
			with["remote"] = g.pickAny("origin", "nope", "")
		}
		bind = g.hostBinds("o", "ok", "s", "url")
	default:
		with["title"], with["pr_id"], with["body"] = "t", g.pickAny("1", 2), "b"
		bind = g.hostBinds("o", "ok", "s", "url")
	}
	ns := "host.git"
	switch {
	case op == "diff" && g.chance(30):
		ns = "iface.vcs.diff"
		delete(with, "op")
	case op == "commit" && g.chance(25):
		ns = "iface.vcs.commit"
		delete(with, "op")
	case (op == "branch" || op == "commit" || op == "push" || op == "open_pr") && g.chance(35):
		ns = "host.git." + op.(string)
		if g.chance(70) {
			delete(with, "op")
		}
	}
	return m{"invoke": ns, "with": with, "bind": bind}
}

func (g *gen) hostVCSWorktree() m {
	op := g.pickAny("create", "create", "list", "list", "get", "sync", "cleanup_scan", "cleanup_apply", "", "nope")
	with := m{"op": op}
	if g.chance(85) {
		with["repo"] = g.pickAny("r", "r", "r", "", "nodir", "{{ slots.t }}", "m")
	}
	bind := m{}
	switch op {
	case "create":
		with["name"] = g.pickAny("w1", "w1", "w2", "", "{{ slots.t }}")
		if g.chance(50) {
			with["base"] = g.pickAny("main", "nope", "b1", "")
		}
		bind = g.hostBinds("o", "ok", "c", "{{ len(result.path ?? '') > 0 }}")
	case "list":
		bind = g.hostBinds("c", "{{ len(result.workspaces ?? []) }}", "s", "workspaces[0].branch", "o", "workspaces[1].id")
	case "get", "sync":
		with["id"] = g.pickAny("w1", "w2", "", "r", "nope")
		bind = g.hostBinds("o", "ok", "s", "branch", "c", "dirty", "j", "skipped_reason")
	case "cleanup_scan":
		if g.chance(40) {
			with["base"] = g.pickAny("main", "b1", "nope")
		}
		if g.chance(30) {
			with["exclude"] = g.pickAny([]any{"w1"}, "w2", []any{})
		}
		bind = g.hostBinds("j", "candidates", "c", "recommended_count", "o", "ok", "s", "candidates[0].reason")
		bind["j"] = "candidates"
	case "cleanup_apply":
		with["candidates"] = g.pickAny("{{ world.j }}", "{{ world.j }}", []any{}, "[]", "x", nil)
		bind = g.hostBinds("o", "ok", "c", "{{ len(result.deleted ?? []) }}", "s", "{{ len(result.skipped ?? []) }}")
	}
	ns := "host.git_worktree"
	switch {
	case op == "list" && g.chance(30):
		ns = "iface.workspace.list"
		delete(with, "op")
	case (op == "create" || op == "list") && g.chance(35):
		ns = "host.git_worktree." + op.(string)
		delete(with, "op")
	}
	return m{"invoke": ns, "with": with, "bind": bind}
}

func (g *gen) hostVCSTicket() m {
	op := g.pickAny("search", "list_mine", "get", "get", "comment", "comment", "transition", "transition", "", "close")
	with := m{"op": op}
	bind := m{}
	id := g.pickAny("B-1", "B-1", "F-2", "X-9", "", "{{ slots.t }}", nil)
	switch op {
	case "search":
		with["query"] = g.pickAny("crash", "DARK", "", " please ", "{{ slots.t }}")
		bind = g.hostBinds("c", "{{ len(result.tickets ?? []) }}", "s", "tickets[0].id", "o", "tickets[0].title")
	case "list_mine":
		with["filter"] = g.pickAny("me", "", "you")
		bind = g.hostBinds("c", "{{ len(result.tickets ?? []) }}", "s", "tickets[0].status")
	case "get":
		with["id"] = id
		// not comments[].created_at: a new comment's time is the run's clock
		bind = g.hostBinds("o", "title", "s", "status", "c", "{{ len(result.comments ?? []) }}", "j", "comments[0].body", "n", "{{ len(result.body ?? '') }}")
	case "comment":
		if g.chance(80) {
			with["id"] = id
		} else {
			with["thread"] = g.pickAny("issues/bugs/B-1.md", "issues/nope.md", "x.txt")
		}
		with["body"] = g.pickAny("note {{ world.n }}", "", "{{ slots.t }}", "\n\nlead", nil)
		if g.chance(40) {
			with["author"] = g.pickAny("bot", " me ", "")
		}
		bind = g.hostBinds("o", "ok", "s", "comment_id")
	case "transition":
		with["id"] = id
		with["to"] = g.pickAny("closed", "in progress", "", nil)
		bind = g.hostBinds("o", "ok")
	}
	ns := "host.local_files.ticket"
	switch {
	case (op == "get" || op == "comment") && g.chance(30):
		ns = "iface.ticket." + op.(string)
		delete(with, "op")
	case (op == "comment" || op == "transition") && g.chance(35):
		ns = "host.local_files.ticket." + op.(string)
		delete(with, "op")
	}
	return m{"invoke": ns, "with": with, "bind": bind}
}

// hostVCSFixture is a fixture whose first turn most often makes the
// repository; with jobs, each turn is followed by an advance that lands
// what it submitted.
func (g *gen) hostVCSFixture(names []string, jobs bool) m {
	f := m{"test_kind": "flow", "app": "../app.yaml", "use_orchestrator": true, "initial_state": "s",
		"host_bindings": m{"host.run": "host.run"}}
	var turns []any
	if g.chance(85) {
		turns = append(turns, m{"intent": m{"name": "setup"}})
	}
	for range 4 + g.rnd.IntN(7) {
		switch {
		case g.chance(8):
			turns = append(turns, m{"intent": m{"name": "back"}})
		case g.chance(5):
			turns = append(turns, m{"intent": m{"name": "setup"}})
		default:
			turns = append(turns, m{"intent": m{"name": g.pick(names...), "slots": m{"t": g.pickAny("w1", "b1", "", "crash", "x y", "B-1")}}})
		}
		if jobs {
			turns = append(turns, m{"advance_clock": "1s"})
		}
	}
	f["turns"] = turns
	if g.chance(50) {
		var ex []any
		for range 1 + g.rnd.IntN(2) {
			e := m{"path": g.pick("../issues/bugs/B-1.md", "../issues/features/F-2.md", "../r/a.txt", "../r/.worktrees/w1/a.txt", "../r/c.txt")}
			if g.chance(60) {
				e["content_matches"] = g.pick("status: closed", "## Comment", "note", "^a", "Dark")
			} else {
				e["must_not_exist"] = g.pickAny(true, false)
			}
			ex = append(ex, e)
		}
		f["expect_files"] = ex
	}
	return f
}
