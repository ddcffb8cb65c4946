package main

// The iface kind (`gen write -kind iface`): stories that declare host
// interfaces (host_interfaces:) at three levels, a top story, the child
// it imports (once as kid, at times again as kid2) and the child's own
// import gk, and call them as `iface.<name>.<op>` from arms, on_enter
// (a plain state's and a parallel region's), background jobs (the job's
// own call and its on_complete) and starlark tools (an interface whose
// default is host.starlark, op run, each level with a script of its own
// at scripts/c.star). An interface's default is a stub, a name no
// fixture stubs, host.starlark or none (then an import binds it, or the
// story does not load). Bindings are drawn in every place a story has
// them: an import's host_bindings (the child's name, or its child's as
// gk__<name>, two levels), the child's own import of gk, and a fixture's
// host_bindings (iface_fixture.go) naming top interfaces, lifted ones
// (kid__tk, kid__gk__tk, kid2__tk), names no interface has, with stub
// names, unstubbed ones, host.starlark and host.run as values. The top
// also calls lifted interfaces (iface.kid__tk.get) and declares a name a
// child declares too (tk), which the lift keeps apart. About one story
// in twelve carries a load-time mistake (an undeclared interface or op,
// an import binding of no interface, a lifted name declared twice, no
// hosts: for host.job).
// Bindings also name an op path (host.tk1.get: by_op then keys on
// get.get) or another interface (iface.vc); top calls may land in a
// failed state with the arms of s; fixtures assert expect_host_calls
// and expect_no_host_calls by resolved and unresolved names. The top and
// kid may declare a dotted name, a.b (golden iface-dotted-name), and a
// mistake may be a templated invoke, or a starlark tool whose script is
// missing.

import (
	"fmt"
	"path/filepath"
	"slices"
)

// writeIface writes n iface stories, story i from seed+i.
func writeIface(dir string, n int, seed uint64) error {
	for i := range n {
		g := &ifGen{gen: newGen(seed + uint64(i))}
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := writeFiles(d, g.story(fmt.Sprintf("genf-%d", seed+uint64(i)))); err != nil {
			return err
		}
	}
	return nil
}

// ifDecl is one declared interface: its name, its default handler ("" for
// none) and whether it is a starlark tool (op run).
type ifDecl struct {
	name, def string
	star      bool
}

// ifLevel is one story of the three: its declared interfaces and the
// names its calls may reach by a lifted name (gk__tk from kid).
type ifLevel struct {
	ifaces []ifDecl
	lifted []string
}

// ifGen draws one iface story; the fields are what the fixtures need.
type ifGen struct {
	*gen
	top, kid, gk ifLevel
	hasGK, kid2  bool
	mistake      string
	jobs         map[string]bool // the locations with a job arm
	// errTargets are the on_error targets of the level being drawn (the
	// top's failed state has the arms of s, so a walk goes on alike)
	errTargets []string
	// alike is a top interface whose name looks lifted (kid__zz), or ""
	alike string
}

// ifStubs are the handlers fixtures stub (host.tkx never is).
var ifStubs = []string{"host.tk1", "host.tk2", "host.tk3", "host.tk4"}

// story draws the top story, kid and gk, the scripts and the fixtures.
func (g *ifGen) story(id string) []agentFile {
	g.jobs = map[string]bool{}
	if g.chance(8) {
		g.mistake = g.pick("undeclared", "op", "import-binding", "collide", "no-default", "templated", "no-hosts", "script")
	}
	g.hasGK, g.kid2 = g.chance(60), g.chance(50)
	// a.b is a dotted name (golden iface-dotted-name): kid's own
	// iface.a.b.get is not renamed by the fold and runs the top's a.b
	g.kid.ifaces = g.decls([]string{"tk", "ck", "calc", "a.b"}, []int{85, 45, 30, 20}, true)
	if g.hasGK {
		g.gk.ifaces = g.decls([]string{"tk", "calc"}, []int{100, 25}, true)
		for _, d := range g.gk.ifaces {
			g.kid.lifted = append(g.kid.lifted, "gk__"+d.name)
		}
	}
	g.top.ifaces = g.decls([]string{"tk", "vc", "calc", "a.b"}, []int{70, 50, 35, 25}, false)
	if slices.ContainsFunc(g.kid.ifaces, func(d ifDecl) bool { return d.name == "a.b" }) &&
		!slices.ContainsFunc(g.top.ifaces, func(d ifDecl) bool { return d.name == "a.b" }) {
		// kid's calls of a.b run the top's, which must exist to load
		g.top.ifaces = append(g.top.ifaces, ifDecl{name: "a.b", def: g.pick(ifStubs...)})
	}
	if g.chance(15) {
		// a top interface named as a lifted one would be: no import
		// lifts a zz, so it is the top's own
		g.alike = "kid__zz"
		g.top.ifaces = append(g.top.ifaces, ifDecl{name: g.alike, def: g.pick(ifStubs...)})
	}
	for _, d := range g.kid.ifaces {
		g.top.lifted = append(g.top.lifted, "kid__"+d.name)
	}
	for _, l := range g.kid.lifted {
		g.top.lifted = append(g.top.lifted, "kid__"+l)
	}
	files := []agentFile{
		{"app.yaml", g.topApp(id)},
		{"kid/app.yaml", g.kidApp()},
		{"scripts/c.star", ifScript("top")},
		{"scripts/c.star.yaml", ifSidecar},
		{"kid/scripts/c.star", ifScript("kid")},
		{"kid/scripts/c.star.yaml", ifSidecar},
	}
	if g.hasGK {
		files = append(files, agentFile{"kid/gk/app.yaml", g.gkApp()},
			agentFile{"kid/gk/scripts/c.star", ifScript("gk")}, agentFile{"kid/gk/scripts/c.star.yaml", ifSidecar})
	}
	if g.mistake != "" {
		files = append(files, agentFile{"mistake.txt", g.mistake + "\n"})
	}
	for i := range 3 + g.rnd.IntN(2) {
		files = append(files, agentFile{fmt.Sprintf("flows/f%d.yaml", i), g.fixture(i)})
	}
	return files
}

// ifScript is a starlark tool answering which level's script ran.
func ifScript(level string) string {
	return "def main(ctx):\n    return {\"v\": \"star-" + level + ":\" + str(ctx.inputs.get(\"x\"))}\n"
}

const ifSidecar = "inputs:\n  x: {type: any}\noutputs:\n  v: {type: string}\n"

// decls draws the interfaces of one level from names, each with its
// chance; child levels may leave a default out (an import binds it).
func (g *ifGen) decls(names []string, pct []int, child bool) []ifDecl {
	var out []ifDecl
	for i, n := range names {
		if !g.chance(pct[i]) {
			continue
		}
		d := ifDecl{name: n, star: n == "calc"}
		switch r := g.rnd.IntN(100); {
		case d.star && r < 80:
			d.def = "host.starlark"
		case r < 65:
			d.def = g.pick(ifStubs...)
		case r < 78:
			d.def = "host.tkx"
		case r < 85:
			d.def = "host.starlark"
		case child || (g.mistake == "no-default" && r < 90):
			d.def = ""
		default:
			d.def = g.pick(ifStubs...)
		}
		out = append(out, d)
	}
	return out
}

// ifaceDefs is a level's host_interfaces block.
func ifaceDefs(ds []ifDecl) m {
	out := m{}
	for _, d := range ds {
		ops := m{"get": m{"input": m{"id": "string"}, "output": m{"v": "string"}}, "put": m{"input": m{"id": "string"}, "output": m{"v": "string"}}}
		if d.star {
			ops = m{"run": m{"input": m{"script": "string"}, "output": m{"v": "string"}}}
		}
		def := m{"description": d.name, "operations": ops}
		if d.def != "" {
			def["default"] = d.def
		}
		out[d.name] = def
	}
	return out
}

// call is one effect invoking name (an interface of the level, or a
// lifted one), binding its v into key.
func (g *ifGen) call(name string, star bool, key string) m {
	e := m{"invoke": "iface." + name + "." + g.pick("get", "get", "put"), "with": m{"id": "q-{{ world." + key + " }}"}, "bind": m{key: "v"}}
	if star {
		e["invoke"] = "iface." + name + ".run"
		e["with"] = m{"script": "scripts/c.star", "inputs": m{"x": "{{ world." + key + " }}"}}
	}
	if g.chance(25) {
		e["id"] = g.pick("c1", "c2")
	}
	if g.chance(30) {
		e["on_error"] = g.pick(append([]string{"."}, g.errTargets...)...)
	}
	return e
}

// callOf is a call of a random interface among ds and lifted (star for
// the starlark ones), or nil when the level has none.
func (g *ifGen) callOf(l ifLevel, key string) m {
	n := len(l.ifaces) + len(l.lifted)
	if n == 0 {
		return nil
	}
	i := g.rnd.IntN(n)
	if i < len(l.ifaces) {
		return g.call(l.ifaces[i].name, l.ifaces[i].star, key)
	}
	name := l.lifted[i-len(l.ifaces)]
	return g.call(name, hasSuffixStar(name), key)
}

func hasSuffixStar(name string) bool { return len(name) >= 4 && name[len(name)-4:] == "calc" }

// job is a background job whose own call or on_complete reaches an
// interface of l; the on_complete binds into key.
func (g *ifGen) job(l ifLevel, key string) m {
	c := g.callOf(l, key)
	if c == nil {
		return nil
	}
	delete(c, "on_error")
	if g.chance(20) {
		// the job itself calls the interface (whose handler, when no
		// fixture stubs it, fails at once: a race upstream)
		delete(c, "bind")
		c["background"] = true
		c["on_complete"] = []any{m{"set": m{key: "{{ world.last_job_status }}/{{ world.last_job_result.v }}"}}}
		return c
	}
	return m{"invoke": "host.job", "background": true, "on_complete": []any{c}}
}

// arm is a stay on intent effects (nil effects: no arm).
func arm(effects ...m) []any {
	var es []any
	for _, e := range effects {
		if e != nil {
			es = append(es, e)
		}
	}
	return []any{m{"target": ".", "effects": es}}
}

// importBindings draws an import's host_bindings for a child whose
// interfaces are ds and whose own lifted names are lifted; a child
// interface with no default is always bound.
func (g *ifGen) importBindings(ds []ifDecl, lifted []string, mistake bool) m {
	hb := m{}
	for _, d := range ds {
		if d.def == "" || g.chance(40) {
			hb[d.name] = g.pick(append(ifStubs, "host.tkx", "host.starlark", "host.tk1.get", "iface.tk")...)
		}
	}
	for _, l := range lifted {
		if g.chance(30) {
			hb[l] = g.pick(ifStubs...)
		}
	}
	if mistake {
		hb["nope"] = "host.tk1"
	}
	return hb
}

// topApp is the top story: interfaces, imports of kid (and kid2), states s,
// w (an on_enter call), p (a parallel region's calls) and failed.
func (g *ifGen) topApp(id string) m {
	on := m{"look": []any{m{"target": "."}}, "k": []any{m{"target": "kid"}}, "tw": []any{m{"target": "w"}}, "tp": []any{m{"target": "p"}}}
	intents := []string{"look", "k", "tw", "tp", "back", "t0", "t1", "tl", "tj"}
	g.errTargets = []string{"failed"}
	defer func() { g.errTargets = nil }()
	on["t0"] = arm(g.callOf(ifLevel{ifaces: g.top.ifaces}, "r"))
	on["t1"] = arm(g.callOf(ifLevel{ifaces: g.top.ifaces}, "u"))
	on["tl"] = arm(g.callOf(ifLevel{lifted: g.top.lifted}, "u"))
	if j := g.job(ifLevel{ifaces: g.top.ifaces, lifted: g.top.lifted}, "j"); j != nil {
		on["tj"], g.jobs["s"] = arm(j), true
	}
	if g.mistake == "undeclared" {
		on["t0"] = arm(m{"invoke": "iface.nope.get", "bind": m{"r": "v"}})
	}
	if g.mistake == "script" {
		// a starlark tool reached through an interface whose script is
		// missing: upstream checks the rewritten invoke at load
		g.top.ifaces = append(g.top.ifaces, ifDecl{name: "tool", def: "host.starlark", star: true})
		on["t0"] = arm(m{"invoke": "iface.tool.run", "with": m{"script": "scripts/missing.star"}, "bind": m{"r": "v"}})
	}
	if g.mistake == "templated" {
		// read as written upstream: interface "{{ world.r }}"
		on["t0"] = arm(m{"invoke": "iface.{{ world.r }}.get", "bind": m{"r": "v"}})
	}
	if g.mistake == "op" && len(g.top.ifaces) > 0 {
		on["t0"] = arm(m{"invoke": "iface." + g.top.ifaces[0].name + ".del", "bind": m{"r": "v"}})
	}
	imports := m{"kid": m{"source": "./kid", "entry": "k1", "exits": m{"done": m{"to": "s"}}}}
	if hb := g.importBindings(g.kid.ifaces, g.kid.lifted, g.mistake == "import-binding"); len(hb) > 0 || g.chance(50) {
		imports["kid"].(m)["host_bindings"] = hb
	}
	if g.kid2 {
		imports["kid2"] = m{"source": "./kid", "entry": "k1", "exits": m{"done": m{"to": "s"}}}
		if hb := g.importBindings(g.kid.ifaces, g.kid.lifted, false); len(hb) > 0 {
			imports["kid2"].(m)["host_bindings"] = hb
		}
		on["k2"] = []any{m{"target": "kid2"}}
		intents = append(intents, "k2")
	}
	ifs := ifaceDefs(g.top.ifaces)
	if g.mistake == "collide" && len(g.top.lifted) > 0 {
		ifs[g.top.lifted[0]] = m{"description": "twice", "operations": m{"get": m{}}, "default": "host.tk1"}
	}
	back := []any{m{"target": "s"}}
	region := func(key string) m {
		st := m{"view": "R " + key + "={{ world." + key + " }}"}
		if c := g.callOf(ifLevel{ifaces: g.top.ifaces, lifted: g.top.lifted}, key); c != nil {
			st["on_enter"] = []any{c}
		}
		return m{"type": "compound", "initial": "x", "states": m{"x": st}}
	}
	w := m{"view": "W r={{ world.r }} le={{ world.last_error }}", "on": m{"back": back, "look": []any{m{"target": "."}}}}
	if c := g.callOf(ifLevel{ifaces: g.top.ifaces, lifted: g.top.lifted}, "r"); c != nil {
		w["on_enter"] = []any{c}
	}
	app := m{
		"app":     m{"id": id, "version": "0.1.0"},
		"imports": imports,
		"world":   worldKeys("r", "u", "j", "pa", "pb"),
		"intents": intentDefs(intents),
		"root":    "s",
		"states": m{
			"s":      m{"view": "S r={{ world.r }} u={{ world.u }} j={{ world.j }} le={{ world.last_error }}", "on": on},
			"w":      w,
			"failed": m{"view": "F r={{ world.r }} u={{ world.u }} le={{ world.last_error }}", "on": on},
			"p":      m{"type": "parallel", "on": m{"back": back}, "states": m{"ra": region("pa"), "rb": region("pb")}},
		},
	}
	if len(ifs) > 0 {
		app["host_interfaces"] = ifs
	}
	if g.mistake != "no-hosts" {
		app["hosts"] = []any{"host.job"}
	}
	return app
}

// kidApp is the child: its interfaces, an import of gk, state k1.
func (g *ifGen) kidApp() m {
	all := ifLevel{ifaces: g.kid.ifaces, lifted: g.kid.lifted}
	on := m{"look": []any{m{"target": "."}}, "out": []any{m{"target": "@exit:done"}}}
	intents := []string{"look", "out", "ks", "kc", "kl", "kj"}
	on["ks"] = arm(g.callOf(ifLevel{ifaces: g.kid.ifaces}, "m"))
	on["kc"] = arm(g.callOf(all, "n"))
	on["kl"] = arm(g.callOf(ifLevel{lifted: g.kid.lifted}, "n"))
	if j := g.job(all, "n"); j != nil {
		on["kj"], g.jobs["kid"] = arm(j), true
	}
	k1 := m{"view": "K m={{ world.m }} n={{ world.n }} le={{ world.last_error }}", "on": on}
	if c := g.callOf(all, "m"); c != nil && g.chance(35) {
		k1["on_enter"] = []any{c}
	}
	app := m{
		"app":     m{"id": "kid", "version": "0.1.0"},
		"world":   worldKeys("m", "n"),
		"root":    "k1",
		"exits":   m{"done": m{}},
		"states":  m{"k1": k1},
		"intents": nil,
	}
	if ifs := ifaceDefs(g.kid.ifaces); len(ifs) > 0 {
		app["host_interfaces"] = ifs
	}
	if g.mistake != "no-hosts" {
		app["hosts"] = []any{"host.job"}
	}
	if g.hasGK {
		imp := m{"source": "./gk", "entry": "g1", "exits": m{"gdone": m{"to": "k1"}}}
		if hb := g.importBindings(g.gk.ifaces, nil, false); len(hb) > 0 {
			imp["host_bindings"] = hb
		}
		app["imports"] = m{"gk": imp}
		on["g"] = []any{m{"target": "gk"}}
		intents = append(intents, "g")
	}
	app["intents"] = intentDefs(intents)
	return app
}

// gkApp is the grandchild: its interfaces and state g1.
func (g *ifGen) gkApp() m {
	on := m{"gout": []any{m{"target": "@exit:gdone"}}, "gs": arm(g.callOf(ifLevel{ifaces: g.gk.ifaces}, "q"))}
	g1 := m{"view": "G q={{ world.q }} le={{ world.last_error }}", "on": on}
	if g.chance(30) {
		g1["on_enter"] = []any{g.callOf(ifLevel{ifaces: g.gk.ifaces}, "q")}
	}
	return m{
		"app":             m{"id": "gk", "version": "0.1.0"},
		"host_interfaces": ifaceDefs(g.gk.ifaces),
		"world":           worldKeys("q"),
		"intents":         intentDefs([]string{"gs", "gout"}),
		"root":            "g1",
		"exits":           m{"gdone": m{}},
		"states":          m{"g1": g1},
	}
}

func worldKeys(keys ...string) m {
	w := m{}
	for _, k := range keys {
		w[k] = m{"type": "any", "default": ""}
	}
	return w
}

func intentDefs(names []string) m {
	out := m{}
	for _, n := range slices.Sorted(slices.Values(names)) {
		out[n] = m{}
	}
	return out
}
