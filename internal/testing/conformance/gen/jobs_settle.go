package main

import (
	"regexp"
	"slices"
	"strings"
)

// settleStory re-aims, over the whole story and its child, the targets a
// clock drain can take, whichever draw wrote them (the base draw's,
// -extras', -deep's and -more's as well as -jobs's own): every timeout's,
// every on_complete target entry's and the on_error of every call in an
// on_complete chain, where it names a state entering which submits a job
// (submitsOnEntry: its own or an ancestor's on_enter, the child). Such a
// job is submitted inside the drain, never idles upstream, and the run
// aborts (flow-format §5.2). A target moves to safe, a top-level state
// that submits nothing on entry; with none, it stays.
func (x *jobGen) settleStory(app, kid m) {
	x.settleTree(app, kid, "", app["states"].(m), x.safe(app, kid, []string{"s1", "s2", "s3", "s0"}))
	if kid != nil {
		ks, _ := kid["states"].(m)
		x.settleTree(kid, nil, "", ks, x.safe(kid, nil, []string{"k2", "k1"}))
	}
}

// safe is the first of names that exists and submits no job on entry.
func (x *jobGen) safe(app, kid m, names []string) string {
	states, _ := app["states"].(m)
	for _, k := range names {
		if _, ok := states[k].(m); ok && !submitsOnEntry(app, kid, k) {
			return k
		}
	}
	return ""
}

// settleTree settles the states under states, whose parent path is at.
func (x *jobGen) settleTree(app, kid m, at string, states m, safe string) {
	if safe == "" {
		return
	}
	eachState(at, states, func(path string, st m) {
		if to, ok := st["timeout"].(m); ok {
			x.settleAim(app, kid, path, to, "target", safe)
		}
		lists := []any{st["on_enter"], st["on_exit"]}
		on, _ := st["on"].(m)
		for _, in := range sortedKeys(on) {
			for _, a := range asList(on[in]) {
				if arm, ok := a.(m); ok {
					lists = append(lists, arm["effects"])
				}
			}
		}
		for _, l := range lists {
			for _, e := range asList(l) {
				em, _ := e.(m)
				for _, c := range asList(em["on_complete"]) {
					if cm, ok := c.(m); ok {
						x.settleAim(app, kid, path, cm, "target", safe)
						x.settleAim(app, kid, path, cm, "on_error", safe)
					}
				}
			}
		}
	})
}

// settleAim moves holder[key], a target declared at path, to safe when
// any state it may name submits a job on entry.
func (x *jobGen) settleAim(app, kid m, path string, holder m, key, safe string) {
	t, _ := holder[key].(string)
	if t == "" {
		return
	}
	if slices.ContainsFunc(aimedPaths(path, t), func(p string) bool { return submitsOnEntry(app, kid, p) }) {
		holder[key] = safe
	}
}

var quotedName = regexp.MustCompile(`'([^']*)'`)

// aimedPaths are the dotted state paths target t, declared at path, may
// name: each quoted name of a template, "." as path itself, a relative
// ../a/b from path's ancestors, slashes as dots.
func aimedPaths(path, t string) []string {
	if strings.Contains(t, "{{") {
		var out []string
		for _, q := range quotedName.FindAllStringSubmatch(t, -1) {
			out = append(out, aimedPaths(path, q[1])...)
		}
		return out
	}
	if t == "." {
		return []string{path}
	}
	segs := strings.Split(path, ".")
	up := 0
	for t == ".." || strings.HasPrefix(t, "../") {
		up++
		t = strings.TrimPrefix(strings.TrimPrefix(t, ".."), "/")
	}
	if up == 0 {
		return []string{strings.ReplaceAll(t, "/", ".")}
	}
	base := strings.Join(segs[:max(len(segs)-up, 0)], ".")
	switch {
	case t == "":
		return []string{base}
	case base == "":
		return []string{strings.ReplaceAll(t, "/", ".")}
	}
	return []string{base + "." + strings.ReplaceAll(t, "/", ".")}
}
