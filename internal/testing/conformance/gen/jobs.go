package main

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// -jobs (flow kind; on the legacy path, which makes no call, only the
// story's draws) adds, after every other
// draw and from its own random source (so a seed writes the same story
// otherwise), background jobs where the other draws put none, and the
// clock around them (story-runtime.md §4, §5):
//   - two to four job sites: a region leaf's on_enter or arm, the parallel
//     root's or a compound's on_enter (the origin is then the leaf the
//     session rests on), a top-level leaf's arm, and the imported child's
//     states (which then declare hosts:);
//   - three job namespaces with their own delays: host.job (1s, 30s, 3m),
//     host.job2 (10s, 4m) and host.jobf, which fails (last_job_status
//     failed, its Result kept);
//   - binds at submission (job_id under last_job_id or r, with a second
//     key whose value never arrives);
//   - on_complete chains of set:, increment, say, emit_intent, parallel
//     emit:, sync invokes (a job namespace whose delay is under fgWait too) with
//     and without on_error,
//     reads of last_job_status and last_job_result, a trail mark, and
//     one to three target entries (guarded, templated with expr, relative
//     to the declaring state, a region leaf, the parallel root, a compound
//     entered without descent, the child, the child's own k1/k2 and
//     @exit:done from inside it);
//   - an intent jw on every top-level state, to a state whose on_enter
//     submits a job;
//   - timeouts on job states, shorter and longer than the delays, so a
//     timeout falls due in the advance a job ends in;
//   - no target drawn (on_complete, timeout) names a state whose on_enter
//     submits a job, and no job arm handles an intent an emit sends: a
//     job submitted inside a clock drain aborts the run upstream; the
//     other draws' timeouts, on_complete targets and chain on_errors are
//     re-aimed likewise (jobs_settle.go);
//   - fixture turns whose clock always covers every delay (upstream aborts
//     a partial advance, flow-format §5.2): most intent turns carry an
//     advance_clock, and shorter advances drawn elsewhere are lengthened.
//
// Several jobs ending in one advance land in a random order upstream
// (docs/compat/engine.md "Jobs ending in one advance"): such a story is
// the known background-job landing race, not a finding.
type jobGen struct {
	rnd    *rand.Rand
	paths  []string // every state path of the story
	kid    bool
	legacy bool          // no clock turns: the legacy path makes no call
	max    time.Duration // the longest job delay drawn
	// quick are the job namespaces whose delay upstream can wait out in
	// the foreground of an on_complete (fgWait)
	quick  []string
	sends  []string // the intents whose arms submit a job
	enters []string // the states whose on_enter submits a job
	// aims are the target entries and timeouts drawn, which settle keeps
	// off the states in enters: a job submitted inside a clock drain
	// never idles upstream, which aborts the run (flow-format §5.2)
	aims []m
}

func newJobGen(seed uint64, legacy bool) *jobGen {
	return &jobGen{rnd: rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, seed+0x9fb21c651e98df25)), legacy: legacy}
}

func (x *jobGen) pick(xs ...string) string { return xs[x.rnd.IntN(len(xs))] }
func (x *jobGen) chance(pct int) bool      { return x.rnd.IntN(100) < pct }
func (x *jobGen) path() string             { return x.paths[x.rnd.IntN(len(x.paths))] }

// apply adds the jobs to the story, its child and its fixture.
func (x *jobGen) apply(app, kid, fixture m) {
	states := app["states"].(m)
	collectPaths(states, &x.paths)
	_, x.kid = app["imports"]
	if x.kid {
		x.paths = append(x.paths, "kid")
	}
	app["hosts"] = []any{"host.ok", "host.bad", "host.job", "host.job2", "host.jobf"}
	delays := map[string]string{"host.job": x.pick("1s", "30s", "3m"), "host.job2": x.pick("10s", "4m"), "host.jobf": "20s"}
	for _, ns := range slices.Sorted(maps.Keys(delays)) {
		v, _ := time.ParseDuration(delays[ns])
		x.max = max(x.max, v)
		if v < fgWait {
			x.quick = append(x.quick, ns)
		}
	}
	hh := fixture["host_handlers"].(m)
	hh["host.job"] = m{"data": m{"v": x.pick("J", "K")}, "delay": delays["host.job"]}
	hh["host.job2"] = m{"data": m{"v": "J2", "n": 4}, "delay": delays["host.job2"]}
	hh["host.jobf"] = m{"error": "jfail", "data": m{"v": "F"}, "delay": delays["host.jobf"]}
	_, par := states["p"].(m)
	for range 2 + x.rnd.IntN(3) {
		switch r := x.rnd.IntN(10); {
		case par && r < 4:
			x.regionSite(states["p"].(m))
		case par && r == 4:
			p := states["p"].(m)
			p["on_enter"] = append(asList(p["on_enter"]), x.job("p", false))
			x.timeout(p)
			x.enters = append(x.enters, "p")
		case r == 5:
			c := states["c"].(m)
			c["on_enter"] = append(asList(c["on_enter"]), x.job("c", false))
			x.enters = append(x.enters, "c")
		case x.kid && r >= 8:
			x.kidSite(kid)
		default:
			k := x.pick("s0", "s1", "s2", "s3", "c.c1")
			st := states[k]
			if k == "c.c1" {
				st = states["c"].(m)["states"].(m)["c1"]
			}
			if x.chance(40) {
				st.(m)["on_enter"] = append(asList(st.(m)["on_enter"]), x.job(k, false))
				x.enters = append(x.enters, k)
			} else {
				x.armSite(k, st.(m), false)
			}
			x.timeout(st.(m))
		}
	}
	x.settle()
	x.settleStory(app, kid)
	x.ways(app)
	if !x.legacy {
		x.fixture(fixture)
	}
}

// settle moves every target drawn that names a state whose on_enter
// submits a job to the top-level state none of them is, or drops it.
func (x *jobGen) settle() {
	safe := ""
	for _, k := range []string{"s1", "s2", "s3", "s0"} {
		if !slices.Contains(x.enters, k) {
			safe = k
			break
		}
	}
	for _, a := range x.aims {
		if t, _ := a["target"].(string); slices.Contains(x.enters, t) || t == "kid" && slices.Contains(x.enters, "kid") {
			a["target"] = safe
		}
	}
}

// ways declares the intent jw and an arm for it on every top-level state,
// each to a state whose on_enter submits a job, so the fixture reaches
// them.
func (x *jobGen) ways(app m) {
	if len(x.enters) == 0 {
		return
	}
	app["intents"].(m)["jw"] = m{"description": "jw"}
	states := app["states"].(m)
	for _, k := range sortedKeys(states) {
		on, _ := states[k].(m)["on"].(m)
		if on == nil {
			continue
		}
		on["jw"] = []any{m{"target": x.enters[x.rnd.IntN(len(x.enters))]}}
	}
	x.sends = append(x.sends, "jw", "jw")
}

// regionSite puts a job on a leaf of a region of p (or on the compound a
// -deep draw made of a2, from its on_enter).
func (x *jobGen) regionSite(p m) {
	rg := x.pick("ra", "rb")
	r := p["states"].(m)[rg].(m)
	leaves := r["states"].(m)
	k := sortedKeys(leaves)[x.rnd.IntN(len(leaves))]
	st := leaves[k].(m)
	path := "p." + rg + "." + k
	if _, ok := st["states"]; ok || x.chance(40) {
		st["on_enter"] = append(asList(st["on_enter"]), x.job(path, false))
		x.enters = append(x.enters, path)
		return
	}
	x.armSite(path, st, false)
}

// armSite appends a job to one arm of the state at path (a new arm for
// an intent it does not handle yet, at times).
func (x *jobGen) armSite(path string, st m, inKid bool) {
	on, _ := st["on"].(m)
	if on == nil {
		on = m{}
		st["on"] = on
	}
	names := sortedKeys(on)
	var in string
	if len(names) == 0 || x.chance(30) {
		in = x.pick("go0", "go1", "go2", "go3", "go4", "go5")
		if inKid {
			in = "poke"
		}
	} else {
		in = names[x.rnd.IntN(len(names))]
	}
	if !inKid && (in == "ping" || in == "go1" || in == "go2" || in == "*") {
		// emit_intent and emit: send these from chains and hops: a job
		// submitted by one inside a clock drain aborts the run upstream
		in = x.pick("go0", "go3", "go4", "go5")
	}
	arms := asList(on[in])
	if len(arms) == 0 {
		arms = []any{m{"target": x.pick(".", path)}}
		if inKid {
			arms = []any{m{"target": x.pick("k1", "k2")}}
		}
		on[in] = arms
	}
	arm := arms[len(arms)-1].(m)
	arm["effects"] = append(asList(arm["effects"]), x.job(path, inKid))
	if inKid {
		in = "kid__" + in
	}
	x.sends = append(x.sends, in)
}

// kidSite puts a job in the imported child: k1's on_enter or an arm of
// k1 or k2.
func (x *jobGen) kidSite(kid m) {
	if kid == nil {
		return
	}
	kid["hosts"] = []any{"host.ok", "host.job", "host.job2", "host.jobf"}
	sts := kid["states"].(m)
	k := x.pick("k1", "k2")
	st := sts[k].(m)
	if k == "k1" && x.chance(50) {
		st["on_enter"] = append(asList(st["on_enter"]), x.job(k, true))
		x.enters = append(x.enters, "kid")
		return
	}
	x.armSite(k, st, true)
}

// timeout arms a timeout on the job state st, at times.
func (x *jobGen) timeout(st m) {
	if _, ok := st["timeout"]; ok || !x.chance(40) {
		return
	}
	st["timeout"] = m{"after": x.pick("2m", "7m", "30m", "2h"), "target": x.path()}
	x.aims = append(x.aims, st["timeout"].(m))
}

// fgWait bounds the stub delay of a call an on_complete makes in the
// foreground: upstream sleeps it in real time inside its job listener and
// aborts the advance (listener WaitListenerIdle: context deadline exceeded)
// once the listener has not idled within its own 5s wait; a 3s delay
// passed, a 10s one aborted.
const fgWait = 3 * time.Second

// job is a background invoke declared at path (in the child with inKid).
func (x *jobGen) job(path string, inKid bool) m {
	ns := x.pick("host.job", "host.job", "host.job2", "host.jobf")
	j := m{"invoke": ns, "background": true, "with": m{"x": x.pick("{{ world.n }}", "j", "{{ world.missing }}")}}
	if inKid {
		j["with"] = m{"x": "{{ world.m }}"}
	}
	switch x.rnd.IntN(4) {
	case 0:
		j["bind"] = m{"last_job_id": "job_id"}
	case 1:
		if !inKid {
			j["bind"] = m{"r": "job_id"}
		}
	case 2:
		if !inKid {
			j["bind"] = m{"last_job_id": "job_id", "r": "v"}
		}
	}
	j["on_complete"] = x.chain(path, inKid)
	return j
}

// chain is an on_complete list for a job declared at path.
func (x *jobGen) chain(path string, inKid bool) []any {
	var out []any
	if x.chance(70) {
		w := "t"
		if inKid {
			w = "m"
		}
		mark := fmt.Sprintf("{{ world.t + 'C:%s:' + world.last_job_status + ';' }}", path)
		if inKid {
			mark = "{{ world.m + 10 }}"
		}
		out = append(out, m{"set": m{w: mark}})
	}
	for range x.rnd.IntN(3) {
		out = append(out, x.entry(inKid))
	}
	if x.chance(75) {
		for range 1 + x.rnd.IntN(2) {
			e := m{"target": x.target(path, inKid)}
			if !inKid {
				x.aims = append(x.aims, e)
			}
			if x.chance(35) {
				e["when"] = x.pick("world.n > 1", "world.b", "world.last_job_status == 'failed'", "world.last_job_result.v == 'J'")
				if inKid {
					e["when"] = x.pick("world.m > 2", "world.last_job_status == 'done'")
				}
			}
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		out = append(out, m{"say": "done"})
	}
	return out
}

// entry is one effect of an on_complete chain.
func (x *jobGen) entry(inKid bool) m {
	if inKid {
		switch x.rnd.IntN(4) {
		case 0:
			return m{"increment": m{"m": 1}}
		case 1:
			return m{"say": "kid job {{ world.m }}"}
		case 2:
			return m{"emit_intent": "poke"}
		default:
			return m{"invoke": "host.ok", "with": m{"x": "k"}}
		}
	}
	switch x.rnd.IntN(11) {
	case 0:
		return m{"increment": m{"n": 1 + x.rnd.IntN(3)}}
	case 1:
		return m{"set": m{"s": x.pick("{{ world.last_job_result.v }}", "{{ last_job_id }}x", "{{ world.n }}")}}
	case 2:
		return m{"say": x.pick("job {{ world.n }}", "job {{ world.last_job_status }}")}
	case 3:
		return m{"emit_intent": x.pick("ping", "{{ world.n > 2 ? 'ping' : '' }}")}
	case 4:
		return m{"emit": x.pick("ping", "go1", "go2")}
	case 5:
		return m{"invoke": "host.ok", "with": m{"x": "{{ world.n }}"}, "bind": m{"r": "v"}}
	case 6:
		e := m{"invoke": "host.bad", "with": m{"x": "1"}}
		if x.chance(70) {
			e["on_error"] = x.path()
		}
		return e
	case 7:
		// a job's own namespace called in the foreground (background:
		// is refused inside on_complete), when upstream can wait for its
		// delay (fgWait); else host.ok
		ns := x.pick("host.job", "host.job2")
		if !slices.Contains(x.quick, ns) {
			ns = "host.ok"
		}
		return m{"invoke": ns, "with": m{"x": "nested"}, "bind": m{"r": "v"}}
	case 8:
		return m{"set": m{"n": "{{ world.last_job_result.n }}"}}
	case 9:
		return m{"set": m{"b": "{{ world.last_job_status == 'done' }}"}}
	default:
		return m{"set": m{"r": "{{ world.r }}j"}}
	}
}

// target is an on_complete target for a job declared at path.
func (x *jobGen) target(path string, inKid bool) string {
	if inKid {
		return x.pick("k1", "k2", "k2", "@exit:done", "{{ 'k' + '2' }}")
	}
	switch x.rnd.IntN(8) {
	case 0:
		if r := relative(path, x.path(), 1); r != "" {
			return r
		}
		if strings.Contains(path, ".") {
			return ".."
		}
	case 1:
		return x.pick("{{ world.n > 2 ? 's1' : 's2' }}", "{{ world.last_job_result.v == 'J' ? 's3' : 'c' }}", "{{ world.last_job_status == 'failed' ? 's1' : 'c.c2' }}")
	case 2:
		for _, p := range []string{"p.rb.b2", "p.ra.a2", "p"} {
			if x.has(p) && x.chance(60) {
				return p
			}
		}
		return "c"
	case 3:
		if x.kid {
			return "kid"
		}
	}
	return x.path()
}

func (x *jobGen) has(p string) bool {
	for _, q := range x.paths {
		if q == p {
			return true
		}
	}
	return false
}

// fixture makes every advance cover the longest delay and gives most
// intent turns one, sends the intents whose arms submit a job more often,
// then adds a few turns.
func (x *jobGen) fixture(f m) {
	long := func() string { return x.pick("5m", "10m", "1h") }
	turns := asList(f["turns"])
	for _, t := range turns {
		tm := t.(m)
		if a, ok := tm["advance_clock"].(string); ok {
			if d, err := time.ParseDuration(a); err == nil && d < x.max {
				tm["advance_clock"] = long()
			}
			continue
		}
		if x.chance(70) {
			tm["advance_clock"] = long()
		}
		if in, ok := tm["intent"].(m); ok && len(x.sends) > 0 && x.chance(35) {
			in["name"] = x.sends[x.rnd.IntN(len(x.sends))]
			in["slots"] = m{}
		}
	}
	for range 1 + x.rnd.IntN(3) {
		t := m{"advance_clock": long()}
		if x.chance(60) {
			t["intent"] = m{"name": x.pick("go0", "go1", "go2", "go3", "go4", "go5", "ping"), "slots": m{}}
		}
		at := x.rnd.IntN(len(turns) + 1)
		turns = append(turns[:at], append([]any{t}, turns[at:]...)...)
	}
	f["turns"] = turns
}
