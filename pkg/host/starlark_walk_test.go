package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestStarlarkSharedValuesWalked: comparing or hashing a value that holds
// one child many times is refused before the walk starts. x = [x] * 100
// nine times is some 900 slots and 100^9 leaves; (t,) * 2 sixty-two times
// is 2^62: each operation below walked the whole tree in one step, which
// neither the step budget, --timeout nor a cancel interrupts (none of them
// finished before this check). A hang here is go test's -timeout to catch.
// The walks are refused at a limit of 8,192 (walkLimit), which they pass
// as they pass 16,777,216; TestStarlarkWalkLimit holds that production
// value.
func TestStarlarkSharedValuesWalked(t *testing.T) {
	const limit = 1 << 13
	mk, sidecar := sharedMakers, sharedSidecar
	cases := map[string]struct{ body, want string }{
		"eq":      {"n = 1 if a == b else 0", fmt.Sprintf("==: comparing these values reaches over %d elements", limit)},
		"ne":      {"n = 1 if a != b else 0", "!=: comparing"},
		"lt":      {"n = 1 if a < b else 0", "<: comparing"},
		"ge":      {"n = 1 if p >= q else 0", ">=: comparing"},
		"in":      {"n = 1 if a in [b] else 0", "in: comparing"},
		"notin":   {"n = 1 if a not in (0, b) else 0", "in: comparing"},
		"sorted":  {"n = len(sorted([a, b]))", "sorted: comparing"},
		"sortkey": {"n = len(sorted([1, 2], key = lambda i: a))", "sorted: comparing"},
		"max":     {"n = len(max(a, b))", "max: comparing"},
		"minkey":  {"n = min([1, 2], key = lambda i: p)", "min: comparing"},
		"index":   {"n = [0, a].index(b)", "index: comparing"},
		"remove":  {"[a].remove(b)", "remove: comparing"},
		"dictlit": {"d = {t: 1}", fmt.Sprintf("hashing this key reaches over %d elements", limit)},
		"dictset": {"d = {}\n    d[t] = 1", "hashing this key"},
		"dictget": {"n = {0: 1}[t]", "hashing this key"},
		"indict":  {"n = 1 if t in {0: 1} else 0", "in: hashing this key"},
		"get":     {"n = {0: 1}.get(t, 0)", "get: hashing this key"},
		"set":     {"n = len(set([t]))", "set: hashing this key"},
		"dict":    {"n = len(dict([(t, 1)]))", "dict: hashing this key"},
		"add":     {"s = set()\n    s.add(t)", "add: hashing this key"},
		"comp":    {"d = {k: 1 for k in [t]}", "hashing this key"},
		// a comparison upstream ends with an error of its own keeps it
		"depth": {"n = 1 if mk(100, 12) == mk(100, 12) else 0", "comparison exceeded maximum recursion depth"},
		// each element passes alone (some 1,500 nodes); together they do not
		"union":  {"x = mkt(2, 9)\n    s = set()\n    for i in range(10):\n        s.add((i, x))\n    n = len(s | s)", "|: hashing this key"},
		"update": {"x = mkt(2, 9)\n    d = {}\n    for i in range(10):\n        d[(i, x)] = i\n    e = {}\n    e.update(d)", "update: hashing this key"},
		"sub":    {"x = mkt(2, 9)\n    d = set([(i, x) for i in range(4)])\n    e = set([(i, x) for i in range(4, 8)])\n    n = len(d - e)", "-: hashing this key"},
		// the globals are frozen once the file has run: a tuple is
		// frozen again each time it is reached
		"freeze": {"pass\n\nT = mkt(2, 62)\n\ndef unused():\n    n = 0", fmt.Sprintf("freezing the script's globals reaches over %d elements", limit)},
		// upstream's freeze of it ended the process (a fatal stack overflow)
		"cycle":   {"pass\n\ndef outer():\n    def f():\n        return f\n    return [f]\n\nG = outer()\n\ndef unused():\n    n = 0", "cycle.star:23:5) refers to itself through the values it closes over"},
		"closure": {"pass\n\ndef outer():\n    t = mkt(2, 62)\n    return lambda: t\n\nG = outer()\n\ndef unused():\n    n = 0", "freezing the script's globals"},
	}
	files := map[string]string{
		"ok.star": mk + "    a, b = mk(3, 4), mk(3, 4)\n    t = mkt(2, 6)\n    d = {t: 1, (1, 2): 2}\n    s = set([t, (1, 2)])\n" +
			"    yes = [a == b, a <= b, a in [b], t in d, t in s, mkt(2, 6) == t, 1 not in [2], d != {}, s | set([1]) != s]\n" +
			// comparisons of the large values that upstream decides early
			"    yes += [(1, p) < (2, q), [p] != [q, 1], p != 5, (0, p) not in [(1, q), 2]]\n" +
			"    n = len([y for y in yes if y]) + d[t] + d.get((1, 2)) + len(sorted([b, a])) + [0, a].index(b) + (5 - 3)\n    return {\"n\": n}\n",
		"ok.star.yaml": sidecar,
	}
	for name, c := range cases {
		files[name+".star"] = mk + "    " + c.body + "\n    return {\"n\": n}\n"
		files[name+".star.yaml"] = sidecar
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, walkLimit: limit})
	for name, c := range cases {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": name + ".star"}, name, c.want)
	}
	if d := mustOK(t, h, starEnv(dir), map[string]any{"script": "ok.star"}); d["n"] != 9+4+1+2+2+1+2 {
		t.Errorf("ok.star: %v", d)
	}
}

// sharedMakers is a script's head: mk(w, d) is a list, mkt(w, d) a tuple,
// that holds one child w times, d deep; main builds a and b (mk(100, 8)),
// p and q (mkt(100, 8)) and t (mkt(2, 62)), and sets n to 0.
const sharedMakers = "def mk(w, d):\n    x = [0]\n    for i in range(d):\n        x = [x] * w\n    return x\n\n" +
	"def mkt(w, d):\n    x = (0,)\n    for i in range(d):\n        x = (x,) * w\n    return x\n\n" +
	"def main(ctx):\n    a = mk(100, 8)\n    b = mk(100, 8)\n    p = mkt(100, 8)\n    q = mkt(100, 8)\n    t = mkt(2, 62)\n    n = 0\n"

// sharedSidecar declares main's one output, n.
const sharedSidecar = "inputs: {}\noutputs:\n  n: { type: int }\n"

// TestStarlarkWalkLimit: the production limit of a walk is range's,
// 16,777,216 nodes, as docs/compat/hardening.md states, and a run whose
// options set no walkLimit walks to it (walker.limit of 0). The refusals
// themselves (a comparison, a hash, the globals' freeze) are proven at a
// lowered limit by TestStarlarkSharedValuesWalked: reaching this one took
// seconds of walking per case.
func TestStarlarkWalkLimit(t *testing.T) {
	if maxWalk != 16_777_216 {
		t.Fatalf("maxWalk is %d; docs/compat/hardening.md says 16,777,216", maxWalk)
	}
	if maxRangeLen != 16_777_216 {
		t.Fatalf("range's limit is %d; docs/compat/hardening.md says 16,777,216", maxRangeLen)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "stops counting past 16,777,216 (range's limit)") {
		t.Fatal("docs/compat/hardening.md no longer states the walk limit of 16,777,216")
	}
	if h := NewStarlarkRun(StarlarkOptions{NoNetwork: true}).(*starlarkRun); h.o.walkLimit != 0 {
		t.Fatalf("a run's walkLimit is %d by default, want 0 (maxWalk)", h.o.walkLimit)
	}
	if got := (&walker{}).limit(); got != maxWalk {
		t.Fatalf("a walker with no max stops past %d, want maxWalk", got)
	}
	for _, tc := range []struct {
		hashing bool
		want    string
	}{{false, "==: comparing these values reaches over 16777216 elements"}, {true, "==: hashing this key reaches over 16777216 elements"}} {
		if err := (&walker{n: maxWalk}).err("==", tc.hashing); err != nil {
			t.Fatalf("a walk of exactly maxWalk nodes is refused: %v", err)
		}
		if err := (&walker{n: maxWalk + 1}).err("==", tc.hashing); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("a walk of maxWalk+1 nodes: %v, want %q", err, tc.want)
		}
	}
}
