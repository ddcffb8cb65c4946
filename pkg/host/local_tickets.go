package host

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"

	"go.yaml.in/yaml/v3"
	"kitsoki/internal/yamlnode"
)

// HandlerLocalTickets is upstream's file-backed ticket tracker (a ticket
// iface's default binding).
const HandlerLocalTickets = "host.local_files.ticket"

// ticketKinds are the directories under <root>/issues/ that hold tickets,
// in the order a get looks in them, with the type each gives.
var ticketKinds = []struct{ dir, kind string }{{"bugs", "bug"}, {"features", "feature"}, {"epics", "epic"}}

// localTicketsHandler serves host.local_files.ticket as upstream
// (conformance builtins-local-tickets): tickets are the files
// <root>/issues/{bugs,features,epics}/<id>.md, root being
// $KITSOKI_TICKETS_ROOT (the operator's) or else the run's working
// directory (upstream: the process's). A ticket file is the "bug file" of
// host.append_to_file: optional YAML front matter between --- lines, a
// body, and one "## Comment <RFC3339> by <author>" section per comment.
// Ops: search ({tickets}, query matched in title and body), list_mine
// ({tickets}, filter matched in the assignee), get (the ticket with body
// and comments), comment and transition (the file rewritten, its front
// matter with sorted keys). Every path stays inside root: an id or thread
// that leads out is a domain error naming it.
type localTicketsHandler struct {
	getenv  func(string) string
	budget  *writeBudget     // nil = unlimited
	checked func(abs string) // tests: fileRoot.checked
}

func (h localTicketsHandler) Call(ctx context.Context, c *Call) (Result, error) {
	op := opArg(c)
	switch op {
	case "":
		return domainErr("%s: op argument is required", HandlerLocalTickets), nil
	case "search", "list_mine", "get", "comment", "transition":
	default:
		return domainErr("%s: unknown op %q", HandlerLocalTickets, op), nil
	}
	root := h.getenv("KITSOKI_TICKETS_ROOT")
	if root == "" {
		wd, err := c.Env.workDir()
		if err != nil {
			return Result{}, fmt.Errorf("%s: %v", HandlerLocalTickets, err)
		}
		root = wd
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return Result{}, fmt.Errorf("%s: tickets root: %v", HandlerLocalTickets, err)
	}
	fr, err := readFileRoot(root, h.checked)
	if err != nil {
		return Result{}, fmt.Errorf("%s: tickets root: %v", HandlerLocalTickets, err)
	}
	defer fr.Close()
	args := c.Args
	switch op {
	case "search":
		query := strings.ToLower(strings.TrimSpace(strArg(args, "query")))
		list := listTickets(fr, func(t *ticket) bool {
			return strings.Contains(strings.ToLower(t.title()), query) || strings.Contains(strings.ToLower(t.body), query)
		})
		if n, ok := searchLimit(args["limit"]); ok && n > 0 && n < int64(len(list)) {
			list = list[:n]
		}
		return Result{Data: map[string]any{"tickets": list}}, nil
	case "list_mine":
		filter := strings.ToLower(strings.TrimSpace(strArg(args, "filter")))
		return Result{Data: map[string]any{"tickets": listTickets(fr, func(t *ticket) bool {
			return strings.Contains(strings.ToLower(t.str("assignee")), filter)
		})}}, nil
	case "get":
		id := strArg(args, "id")
		if strings.TrimSpace(id) == "" { // a blank id is missing; another is used untrimmed, as upstream
			return domainErr("ticket.get: id argument is required"), nil
		}
		t, res := findTicket("ticket.get", fr, id)
		if t == nil {
			return res, nil
		}
		return Result{Data: t.full()}, nil
	case "comment":
		return h.comment(c, fr)
	}
	return h.transition(c, fr)
}

func (h localTicketsHandler) comment(c *Call, fr *fileRoot) (Result, error) {
	const name = "ticket.comment"
	args := c.Args
	body := strArg(args, "body")
	if strings.TrimSpace(body) == "" {
		return domainErr("%s: body argument is required", name), nil
	}
	var t *ticket
	var res Result
	switch id, thread := strArg(args, "id"), strArg(args, "thread"); {
	case strings.TrimSpace(id) != "":
		t, res = findTicket(name, fr, id)
	case strings.HasSuffix(thread, ".md"):
		// as upstream: a thread naming a markdown file is that ticket file
		t, res = ticketAt(name, "thread", fr, thread)
	default:
		return domainErr("%s: id or thread is required", name), nil
	}
	if t == nil {
		return res, nil
	}
	if t.front == nil {
		// as upstream: a comment writes a front matter, {} when the file
		// had none (conformance ticket-comment-no-front-matter)
		t.front = map[string]any{}
	}
	t.comments = append(t.comments, ticketComment{
		at: c.Env.now().UTC().Truncate(time.Second),
		// as upstream: written as given, "kitsoki" only when empty (a
		// blank author reads back as no author; conformance
		// ticket-comment-author)
		author: cmp.Or(strArg(args, "author"), "kitsoki"),
		body:   strings.TrimRight(body, "\n"),
	})
	if res, ok := h.write(fr, name, t); !ok {
		return res, nil
	}
	return Result{Data: map[string]any{"ok": true, "comment_id": t.id + "#" + strconv.Itoa(len(t.comments))}}, nil
}

func (h localTicketsHandler) transition(c *Call, fr *fileRoot) (Result, error) {
	const name = "ticket.transition"
	id := strArg(c.Args, "id")
	if strings.TrimSpace(id) == "" {
		return domainErr("%s: id argument is required", name), nil
	}
	to := strArg(c.Args, "to") // kept as given ("  in progress  " too)
	if strings.TrimSpace(to) == "" {
		return domainErr("%s: to argument is required", name), nil
	}
	t, res := findTicket(name, fr, id)
	if t == nil {
		return res, nil
	}
	if t.front == nil {
		t.front = map[string]any{}
	}
	t.front["status"] = to
	if res, ok := h.write(fr, name, t); !ok {
		return res, nil
	}
	return Result{Data: map[string]any{"ok": true}}, nil
}

// write replaces t's file with its new text, within the write budget,
// through fr.
func (h localTicketsHandler) write(fr *fileRoot, name string, t *ticket) (Result, bool) {
	text, err := t.render()
	if err != nil {
		return domainErr("%s: bug file: marshal frontmatter: %v", name, err), false
	}
	if err := h.budget.take(name, t.shown, t.size, int64(len(text))); err != nil {
		return domainErr("%v", err), false
	}
	if err := fr.WriteFile(t.path, text); err != nil {
		h.budget.refund(t.size, int64(len(text)))
		return domainErr("%s: write %s: %v", name, t.shown, err), false
	}
	return Result{}, true
}

// ticket is one parsed ticket file.
type ticket struct {
	id, kind    string
	path, shown string // absolute; as the story named it (errors)
	size        int64  // the file's size when read
	front       map[string]any
	body        string
	comments    []ticketComment
}

type ticketComment struct {
	at           time.Time
	author, body string
}

// str is a front-matter field when it is a string, else "".
func (t *ticket) str(key string) string {
	s, _ := t.front[key].(string)
	return s
}

// title is the front matter's title, else the body's first "# " heading,
// else the id.
func (t *ticket) title() string {
	if s := t.str("title"); s != "" {
		return s
	}
	for line := range strings.Lines(t.body) {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			if h = strings.TrimSpace(h); h != "" {
				return h
			}
		}
	}
	return t.id
}

// summary is a ticket as search and list_mine list it.
func (t *ticket) summary() map[string]any {
	return map[string]any{"id": t.id, "type": t.kind, "title": t.title(), "status": t.str("status"),
		"assignee": t.str("assignee"), "severity": t.str("severity"), "repro_command": t.str("repro_command"), "url": t.str("url")}
}

// full is a ticket as get answers it: the summary, the body and the comments.
func (t *ticket) full() map[string]any {
	m := t.summary()
	m["body"] = t.body
	comments := make([]map[string]any, 0, len(t.comments))
	for i, cm := range t.comments {
		comments = append(comments, map[string]any{"id": t.id + "#" + strconv.Itoa(i+1), "author": cm.author,
			"body": cm.body, "created_at": cm.at.UTC().Format(time.RFC3339)})
	}
	m["comments"] = comments
	return m
}

// listTickets parses every ticket file under root/issues that keep
// selects, sorted by id from the greatest, as upstream lists them. A
// file that does not parse, a directory, another extension and any file
// whose way leads out of root are left out.
func listTickets(fr *fileRoot, keep func(*ticket) bool) []map[string]any {
	var found []*ticket
	for _, k := range ticketKinds {
		dir, err := fr.confine(HandlerLocalTickets, "issues directory", filepath.Join("issues", k.dir))
		if err != nil {
			continue
		}
		entries, err := fr.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".md") || e.IsDir() {
				continue
			}
			t, err := readTicket(fr, filepath.Join("issues", k.dir, e.Name()), k.kind)
			if err == nil && keep(t) {
				found = append(found, t)
			}
		}
	}
	slices.SortStableFunc(found, func(a, b *ticket) int { return strings.Compare(b.id, a.id) })
	list := make([]map[string]any, 0, len(found)) // upstream's type: a view prints it
	for _, t := range found {
		list = append(list, t.summary())
	}
	return list
}

// findTicket reads the ticket id from the first kind directory that holds
// <id>.md; nil and the domain error when none does or it does not parse.
func findTicket(name string, fr *fileRoot, id string) (*ticket, Result) {
	for _, k := range ticketKinds {
		rel := filepath.Join("issues", k.dir, id+".md")
		abs, err := fr.confine(name, "id", rel)
		if err != nil {
			return nil, domainErr("%v", err)
		}
		fi, err := fr.Stat(abs)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			// a name the system refuses (too long) ends the search with
			// its error, as upstream's (conformance ticket-id-too-long)
			return nil, domainErr("%s: %v", name, err)
		}
		if err != nil || fi.IsDir() {
			continue
		}
		t, err := readTicket(fr, rel, k.kind)
		if err != nil {
			return nil, domainErr("%s: %v", name, err)
		}
		t.shown = id
		return t, Result{}
	}
	return nil, domainErr("%s: %s not found", name, id)
}

// ticketAt reads the ticket file a thread names (relative to root).
func ticketAt(name, label string, fr *fileRoot, p string) (*ticket, Result) {
	abs, err := fr.confineWritten(name, label, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, domainErr("%s: %s not found", name, p)
	}
	if err != nil {
		return nil, domainErr("%v", err)
	}
	if fi, err := fr.Stat(abs); err != nil || fi.IsDir() {
		return nil, domainErr("%s: %s not found", name, p)
	}
	t, err := readTicket(fr, abs, kindOf(abs))
	if err != nil {
		return nil, domainErr("%s: %v", name, err)
	}
	t.shown = p
	return t, Result{}
}

// kindOf is the type of the kind directory a ticket file lies in ("" when none).
func kindOf(path string) string {
	d := filepath.Base(filepath.Dir(path))
	for _, k := range ticketKinds {
		if k.dir == d {
			return k.kind
		}
	}
	return ""
}

// readTicket reads and parses the ticket file p (relative to the root, or
// absolute inside it), a regular file of at most safefile.Data bytes.
func readTicket(fr *fileRoot, p, kind string) (*ticket, error) {
	abs, err := fr.confine(HandlerLocalTickets, "ticket", p)
	if err != nil {
		return nil, err
	}
	b, err := fr.ReadFile(abs, safefile.Data)
	if err != nil {
		return nil, fmt.Errorf("read %s: %s", p, safefile.ErrText(err))
	}
	t, err := parseTicket(b)
	if err != nil {
		return nil, err
	}
	t.id = strings.TrimSuffix(filepath.Base(abs), ".md")
	t.kind, t.path, t.shown, t.size = kind, abs, p, int64(len(b))
	return t, nil
}

// commentHeader starts a comment section's line.
const commentHeader = "## Comment "

var errNoClosingDelimiter = errors.New("bug file: missing closing --- delimiter")

// parseTicket splits a ticket file as upstream: front matter when the
// file starts with "---" (up to the next line starting with "---"), then
// the body up to the first line starting "## Comment ", then the comments.
// With comments the body keeps one final newline; without, it is as
// written. A comment's header is "<time> by <author>" (a header without
// " by " is a time when it reads as one, else all author; a time that is
// not RFC 3339 is the zero time), its
// body the lines after the header, trailing newlines dropped.
func parseTicket(b []byte) (*ticket, error) {
	text := string(b)
	t := &ticket{}
	if rest, ok := strings.CutPrefix(text, "---"); ok {
		_, rest, _ = strings.Cut(rest, "\n")
		i := strings.Index(rest, "\n---")
		if i < 0 {
			return nil, errNoClosingDelimiter
		}
		front := rest[:i]
		_, text, _ = strings.Cut(rest[i+len("\n---"):], "\n")
		var doc yaml.Node
		if err := yamlnode.UnmarshalPlain([]byte(front), &doc); err != nil {
			return nil, fmt.Errorf("bug file: parse frontmatter: %v", err)
		}
		if at := yamlnode.AliasTextFileOver(&doc); at != nil {
			// comment and transition write the front matter back, each
			// alias expanded
			return nil, fmt.Errorf("bug file: front matter line %d: %s", at.Line, yamlnode.AliasTextMsg("front matter", ""))
		}
		if d := yamlnode.TooDeep(&doc, yamlnode.MaxDepth); d != nil {
			// written back, each level indents its whole subtree again
			return nil, fmt.Errorf("bug file: front matter line %d: %s", d.Line, yamlnode.TooDeepMsg("front matter"))
		}
		if k := yamlnode.ComplexKey(&doc); k != nil {
			return nil, fmt.Errorf("bug file: front matter line %d, column %d: %s", k.Line, k.Column, yamlnode.ComplexKeyMsg("front matter"))
		}
		timestampsAsText(&doc)
		exponentsAsText(&doc)
		if err := doc.Decode(&t.front); err != nil {
			return nil, fmt.Errorf("bug file: parse frontmatter: %v", err)
		}
		if t.front == nil { // present but empty: written back as {}
			t.front = map[string]any{}
		}
	}
	var cur *ticketComment
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.body = strings.TrimRight(body.String(), "\n")
		} else {
			t.body = body.String()
		}
		body.Reset()
	}
	for line := range strings.Lines(text) {
		head, ok := strings.CutPrefix(line, commentHeader)
		if !ok {
			body.WriteString(line)
			continue
		}
		flush()
		head = strings.TrimSpace(head)
		ts, author, found := strings.Cut(head, " by ")
		at, err := time.Parse(time.RFC3339, strings.TrimSpace(ts))
		if !found && err != nil { // a header alone is a time, else an author
			author = head
		}
		t.comments = append(t.comments, ticketComment{at: at, author: strings.TrimSpace(author)})
		cur = &t.comments[len(t.comments)-1]
	}
	flush()
	if len(t.comments) > 0 {
		t.body = strings.TrimRight(t.body, "\n") + "\n"
	}
	return t, nil
}

// timestampsAsText makes every plain timestamp scalar under n a string,
// as upstream's YAML reads one (filed_at: 2026-01-01 stays the text it
// was, and is written back quoted).
func timestampsAsText(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!timestamp" {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		timestampsAsText(c)
	}
}

// render is t's file text as upstream writes it back: the front matter
// (when the file had one, or a comment or transition rewrote it; an empty
// one as {}) with its keys sorted, the body (when it has more
// than newlines) with one final newline, and each comment as "\n## Comment <time> by <author>\n\n<body>\n".
func (t *ticket) render() ([]byte, error) {
	var b bytes.Buffer
	if t.front != nil {
		b.WriteString("---\n")
		var front yaml.Node
		if err := front.Encode(upFloats(t.front)); err != nil {
			return nil, err
		}
		upStyle(&front) // as upstream quotes (frontmatter_style.go)
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		enc.CompactSeqIndent()
		if err := enc.Encode(&front); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
		b.WriteString("---\n")
	}
	if body := strings.TrimRight(t.body, "\n"); body != "" {
		b.WriteString(body + "\n")
	}
	for _, cm := range t.comments {
		fmt.Fprintf(&b, "\n%s%s by %s\n\n%s\n", commentHeader, cm.at.UTC().Format(time.RFC3339), cm.author, cm.body)
	}
	return b.Bytes(), nil
}

// searchLimit reads search's limit as upstream: an int, or a float cut
// toward zero (2.7 is 2); a YAML whole number (a uint64), text or anything
// else is no limit (conformance tickets-search-limit).
func searchLimit(v any) (int64, bool) {
	if _, ok := v.(uint64); ok {
		return 0, false
	}
	if n, ok := jsonvalue.Integer(v); ok {
		return n, true
	}
	if f, ok := v.(float64); ok && f > math.MinInt64 && f < math.MaxInt64 {
		return int64(f), true
	}
	return 0, false
}
