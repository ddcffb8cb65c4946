package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ticketFiles is a small tracker: front matter, comments, a heading title,
// a file that does not parse and files that are not tickets.
var ticketFiles = map[string]string{
	"issues/bugs/T-1.md": "---\ntitle: First bug\nstatus: open\nassignee: alice\nfiled_at: 2026-01-01T00:00:00Z\nlabels: [a, b]\n---\n# T-1\n\nThe zebra body.\n\n\n" +
		"## Comment 2026-01-02T00:00:00+02:00 by bob\n\nfirst\n\n## Comment nope by carol  \nsecond\n## Commentary stays body\n",
	"issues/features/F-2.md": "# Heading title\n\nfeature body",
	"issues/epics/E-3.md":    "---\ntitle: Epic\nassignee: Alice Smith\n---\nepic\n",
	"issues/bugs/B-9.md":     "---\ntitle: broken\n",
	"issues/bugs/sub/S-1.md": "nested\n",
	"issues/bugs/notes.txt":  "not a ticket\n",
}

func ticketsEnv(t *testing.T) (localTicketsHandler, Env, string) {
	t.Helper()
	wd := t.TempDir()
	writeTree(t, wd, ticketFiles)
	return localTicketsHandler{getenv: noEnv}, Env{WorkDir: wd, Now: fixedClock()}, wd
}

func ids(t *testing.T, d map[string]any) string {
	t.Helper()
	list, ok := d["tickets"].([]map[string]any)
	if !ok {
		t.Fatalf("tickets: %T", d["tickets"])
	}
	var out []string
	for _, m := range list {
		out = append(out, m["id"].(string))
	}
	return strings.Join(out, ",")
}

// TestLocalTicketsRead: search, list_mine and get as upstream answers
// them (conformance builtins-local-tickets).
func TestLocalTicketsRead(t *testing.T) {
	h, env, _ := ticketsEnv(t)
	op := func(args map[string]any) map[string]any { return mustOK(t, h, env, args) }
	if got := ids(t, op(map[string]any{"op": "search"})); got != "T-1,F-2,E-3" {
		t.Errorf("search: %s", got)
	}
	if got := ids(t, op(map[string]any{"op": "search", "query": " ZEBRA "})); got != "T-1" {
		t.Errorf("search zebra: %s", got)
	}
	if got := ids(t, op(map[string]any{"op": "search", "query": "first"})); got != "T-1" {
		t.Errorf("search by title: %s", got) // comments are not searched: "first" is T-1's title
	}
	if got := ids(t, op(map[string]any{"op": "search", "limit": int64(2)})); got != "T-1,F-2" {
		t.Errorf("search limit: %s", got)
	}
	if got := ids(t, op(map[string]any{"op": "list_mine", "filter": "ALI"})); got != "T-1,E-3" {
		t.Errorf("list_mine: %s", got)
	}
	d := op(map[string]any{"op": "get", "id": "T-1"})
	if d["title"] != "First bug" || d["type"] != "bug" || d["status"] != "open" || d["body"] != "# T-1\n\nThe zebra body.\n" {
		t.Errorf("get T-1: %v", d)
	}
	cs := d["comments"].([]map[string]any)
	if len(cs) != 2 || cs[0]["author"] != "bob" || cs[0]["created_at"] != "2026-01-01T22:00:00Z" || cs[0]["body"] != "\nfirst" ||
		cs[1]["author"] != "carol" || cs[1]["created_at"] != "0001-01-01T00:00:00Z" || cs[1]["body"] != "second\n## Commentary stays body" || cs[1]["id"] != "T-1#2" {
		t.Errorf("get T-1 comments: %v", cs)
	}
	if d := op(map[string]any{"op": "get", "id": "F-2"}); d["title"] != "Heading title" || d["body"] != "# Heading title\n\nfeature body" || d["type"] != "feature" {
		t.Errorf("get F-2: %v", d)
	}
	if d := op(map[string]any{"op": "get", "id": "sub/S-1"}); d["id"] != "S-1" || d["title"] != "S-1" {
		t.Errorf("get sub/S-1: %v", d)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "host.local_files.ticket: op argument is required"},
		{map[string]any{"op": "close"}, `host.local_files.ticket: unknown op "close"`},
		{map[string]any{"op": "get", "id": uint64(5)}, "ticket.get: id argument is required"},
		{map[string]any{"op": "get", "id": "nope"}, "ticket.get: nope not found"},
		{map[string]any{"op": "get", "id": "  "}, "ticket.get: id argument is required"},
		{map[string]any{"op": "get", "id": " T-1 "}, "ticket.get:  T-1  not found"},
		{map[string]any{"op": "get", "id": "../T-1"}, "ticket.get: ../T-1 not found"},
		{map[string]any{"op": "get", "id": "B-9"}, "ticket.get: bug file: missing closing --- delimiter"},
		{map[string]any{"op": "get", "id": "../../../etc/passwd"}, "resolves outside"},
	} {
		wantDomainErr(t, h, env, c.args, sprint(c.args), c.want)
	}
	// no issues directory: nothing listed, nothing found
	empty := Env{WorkDir: t.TempDir()}
	if got := mustOK(t, h, empty, map[string]any{"op": "search"}); len(got["tickets"].([]map[string]any)) != 0 {
		t.Errorf("empty search: %v", got)
	}
}

// TestLocalTicketsWrite: comment and transition rewrite the file as
// upstream does (sorted front matter, {} for a comment on a file without
// one, timestamps kept as text, comments
// re-serialised with the run's clock), and a thread names a ticket file.
func TestLocalTicketsWrite(t *testing.T) {
	h, env, wd := ticketsEnv(t)
	d := mustOK(t, h, env, map[string]any{"op": "comment", "id": "F-2", "body": "  note  \n\n", "author": "  dan  "})
	if d["comment_id"] != "F-2#1" || d["ok"] != true {
		t.Errorf("comment: %v", d)
	}
	mustOK(t, h, env, map[string]any{"op": "transition", "id": "T-1", "to": "done"})
	mustOK(t, h, env, map[string]any{"op": "comment", "thread": "issues/epics/E-3.md", "body": "by thread"})
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(wd, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := read("issues/features/F-2.md"), "---\n{}\n---\n# Heading title\n\nfeature body\n\n## Comment 2026-12-01T09:19:52Z by   dan  \n\n  note  \n"; got != want {
		t.Errorf("F-2.md:\n%q\nwant\n%q", got, want)
	}
	want := "---\nassignee: alice\nfiled_at: \"2026-01-01T00:00:00Z\"\nlabels:\n- a\n- b\nstatus: done\ntitle: First bug\n---\n# T-1\n\nThe zebra body.\n\n" +
		"## Comment 2026-01-01T22:00:00Z by bob\n\n\nfirst\n\n## Comment 0001-01-01T00:00:00Z by carol\n\nsecond\n## Commentary stays body\n"
	if got := read("issues/bugs/T-1.md"); got != want {
		t.Errorf("T-1.md:\n%q\nwant\n%q", got, want)
	}
	if got := read("issues/epics/E-3.md"); !strings.HasSuffix(got, "epic\n\n## Comment 2026-12-01T09:19:52Z by kitsoki\n\nby thread\n") {
		t.Errorf("E-3.md: %q", got)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"op": "comment", "id": "F-2", "body": "  "}, "ticket.comment: body argument is required"},
		{map[string]any{"op": "comment", "thread": "E-3", "body": "x"}, "ticket.comment: id or thread is required"},
		{map[string]any{"op": "comment", "thread": "x/E-3.md", "body": "x"}, "ticket.comment: x/E-3.md not found"},
		{map[string]any{"op": "comment", "thread": "/etc/x.md", "body": "x"}, "resolves outside"},
		{map[string]any{"op": "transition", "to": "x"}, "ticket.transition: id argument is required"},
		{map[string]any{"op": "transition", "id": "T-1"}, "ticket.transition: to argument is required"},
		{map[string]any{"op": "transition", "id": "T-1", "to": "  "}, "ticket.transition: to argument is required"},
		{map[string]any{"op": "transition", "id": " ", "to": "x"}, "ticket.transition: id argument is required"},
		{map[string]any{"op": "comment", "id": "  ", "body": "x"}, "ticket.comment: id or thread is required"},
		{map[string]any{"op": "transition", "id": "B-9", "to": "x"}, "ticket.transition: bug file: missing closing --- delimiter"},
	} {
		wantDomainErr(t, h, env, c.args, sprint(c.args), c.want)
	}
}

// TestLocalTicketsConfined: a ticket file that is a symbolic link out of
// the working directory is neither listed nor read, and KITSOKI_TICKETS_ROOT
// (the operator's) moves the root.
func TestLocalTicketsConfined(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.md": "---\ntitle: secret\n---\nS\n", "issues/bugs/R-1.md": "r\n"})
	h, env, wd := ticketsEnv(t)
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(wd, "issues/bugs/L-1.md")); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, mustOK(t, h, env, map[string]any{"op": "search"})); strings.Contains(got, "L-1") {
		t.Errorf("search listed a link out: %s", got)
	}
	wantDomainErr(t, h, env, map[string]any{"op": "get", "id": "L-1"}, "link out", "symbolic link")
	wantDomainErr(t, h, env, map[string]any{"op": "transition", "id": "L-1", "to": "x"}, "link out", "symbolic link")
	h.getenv = func(k string) string {
		if k == "KITSOKI_TICKETS_ROOT" {
			return outside
		}
		return ""
	}
	if got := ids(t, mustOK(t, h, env, map[string]any{"op": "search"})); got != "R-1" {
		t.Errorf("KITSOKI_TICKETS_ROOT search: %s", got)
	}
	// under SandboxOptions the variable is not read
	sb, _, _, _ := Builtins(SandboxOptions(Options{Getenv: h.getenv})).Lookup(HandlerLocalTickets)
	if got := ids(t, mustOK(t, sb, env, map[string]any{"op": "search"})); got != "T-1,F-2,E-3" {
		t.Errorf("sandboxed search: %s", got)
	}
}

// TestLocalTicketsBudget: a rewrite counts against the write budget.
func TestLocalTicketsBudget(t *testing.T) {
	h, env, _ := ticketsEnv(t)
	h.budget = newWriteBudget(10)
	wantDomainErr(t, h, env, map[string]any{"op": "comment", "id": "F-2", "body": strings.Repeat("x", 100)}, "over budget", "ticket.comment")
}

// FuzzParseTicket: any bytes parse to a ticket or an error, never a panic,
// and a parsed ticket renders to text that parses again to the same
// front matter, body and comment count (what comment and transition write
// is readable back).
func FuzzParseTicket(f *testing.F) {
	for _, s := range ticketFiles {
		f.Add([]byte(s))
	}
	f.Add([]byte("---\r\ntitle: crlf\r\n---\r\nbody\r\n"))
	f.Add([]byte("## Comment 2026-01-02T00:00:00Z by q\n\nonly\n"))
	f.Add([]byte("---\nn: {a: [x, y]}\nt: 2026-01-01\n---\n"))
	f.Add([]byte("---\na: 1e3\nb: 100.0\nc: \"<<\"\nd: \"12:30:00\"\ne: [-1e3, 2.0, \"? x\", \".inf\"]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tk, err := parseTicket(data)
		if err != nil {
			return
		}
		out, err := tk.render()
		if err != nil {
			return // a front matter yaml.v3 reads but cannot write back (an alias cycle)
		}
		again, err := parseTicket(out)
		if err != nil {
			t.Fatalf("rendered ticket does not parse: %v\n%q", err, out)
		}
		if len(again.comments) != len(tk.comments) || len(again.front) != len(tk.front) {
			t.Fatalf("round trip: %d comments, %d keys; was %d, %d\n%q", len(again.comments), len(again.front), len(tk.comments), len(tk.front), out)
		}
	})
}

// TestTicketRenderMergeKey: a front matter key << is written quoted and
// reads back (upstream writes it plain, a merge key; frontmatter-scalars).
func TestTicketRenderMergeKey(t *testing.T) {
	tk, err := parseTicket([]byte("---\n\"<<\": x\nk: \"<<\"\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := tk.render()
	if err != nil {
		t.Fatal(err)
	}
	if want := "---\n\"<<\": x\nk: <<\n---\n"; string(out) != want {
		t.Errorf("render: %q, want %q", out, want)
	}
	if _, err := parseTicket(out); err != nil {
		t.Errorf("%q does not read back: %v", out, err)
	}
}
