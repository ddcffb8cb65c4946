package main

import (
	"math/rand/v2"
	"strings"
)

// cassetteGen rewrites a starlark story's HTTP cassettes in the forms
// real ones are written (-cassettes): exchanges under request: (as
// weather-report's) instead of match:, or under both with another url in
// each, record_mode none, once or empty, and methods in lower case. It
// draws from its own source after the story is built, so a seed writes
// the same story otherwise. new_episodes and all are left out: a miss
// would reach for the network.
type cassetteGen struct{ rnd *rand.Rand }

func newCassetteGen(seed uint64) *cassetteGen {
	return &cassetteGen{rnd: rand.New(rand.NewPCG(seed^0x165667b19e3779f9, seed+0x85ebca77c2b2ae63))}
}

// apply rewrites every kind: http_cassette file among files.
func (c *cassetteGen) apply(files []agentFile) {
	for _, f := range files {
		cas, ok := f.body.(m)
		if !ok || cas["kind"] != "http_cassette" {
			continue
		}
		if mode := []string{"", "none", "once", "-"}[c.rnd.IntN(4)]; mode != "-" {
			cas["record_mode"] = mode
		}
		exs, _ := cas["exchanges"].([]any)
		for _, e := range exs {
			ex := e.(m)
			req := ex["match"].(m)
			if c.rnd.IntN(4) == 0 {
				req["method"] = strings.ToLower(req["method"].(string))
			}
			switch c.rnd.IntN(3) {
			case 0:
				delete(ex, "match")
				ex["request"] = req
			case 1:
				other := m{"method": req["method"], "url": "https://api.test/other"}
				if c.rnd.IntN(2) == 0 {
					ex["request"] = other
				} else {
					ex["request"], ex["match"] = req, other
				}
			}
		}
	}
}
