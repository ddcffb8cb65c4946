package plugin

import (
	"fmt"
	"maps"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// buildOrderMaps is the map-based Kahn's algorithm buildOrder replaced,
// kept as the reference its results are compared with.
func buildOrderMaps(a *Assembly, nodes []node, agents []AgentStatus, known map[string]bool, reason map[string]string) []string {
	reqs := map[string][]string{}
	indeg := map[string]int{}
	users := map[string][]string{}
	for _, n := range nodes {
		reqs[n.id] = n.requires
		for _, q := range n.requires {
			if known[q] {
				indeg[n.id]++
				users[q] = append(users[q], n.id)
			}
		}
	}
	var ready, order []string
	for _, n := range nodes {
		if indeg[n.id] == 0 {
			ready = append(ready, n.id)
		}
	}
	for len(ready) > 0 {
		sort.Strings(ready)
		id := ready[0]
		ready = ready[1:]
		order = append(order, id)
		a.inheritDisable(id, reqs[id], known, reason)
		for _, u := range users[id] {
			indeg[u]--
			if indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	placed := map[string]bool{}
	for _, id := range order {
		placed[id] = true
	}
	for _, n := range nodes {
		if !placed[n.id] {
			reason[n.id] = "requires cycle: " + n.id + " -> " + strings.Join(n.requires, ", ")
			a.Warnings = append(a.Warnings, Warning{Message: fmt.Sprintf("%s is part of a requires cycle; it is disabled", n.id)})
		}
	}
	isAlias := map[string]bool{}
	for _, ag := range agents {
		isAlias[ag.Alias] = true
	}
	var plugins []string
	for _, id := range order {
		if !isAlias[id] {
			plugins = append(plugins, id)
		}
	}
	return plugins
}

// TestBuildOrderMatchesReference: on random graphs (repeated ids, cycles,
// unknown and disabled requirements, aliases), buildOrder gives the
// reference's order, reasons and warnings.
func TestBuildOrderMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	names := []string{"a", "b", "c", "d", "e", "f", "g", "x.y", "budget", "trace"}
	for range 3000 {
		var nodes []node
		known := map[string]bool{}
		for i, n := 0, 1+rng.Intn(8); i < n; i++ {
			var req []string
			for j, m := 0, rng.Intn(3); j < m; j++ {
				req = append(req, names[rng.Intn(len(names))])
			}
			id := names[rng.Intn(len(names))]
			nodes = append(nodes, node{id, req})
			known[id] = true
		}
		var agents []AgentStatus
		for _, n := range nodes {
			if rng.Intn(4) == 0 {
				agents = append(agents, AgentStatus{Alias: n.id})
			}
		}
		reason := map[string]string{}
		if rng.Intn(3) == 0 {
			reason[nodes[0].id] = "disabled by the profile"
		}
		reason2 := map[string]string{}
		maps.Copy(reason2, reason)
		want, got := &Assembly{}, &Assembly{}
		wo := buildOrderMaps(want, nodes, agents, known, reason)
		go2 := got.buildOrder(nodes, agents, known, reason2)
		if !reflect.DeepEqual(wo, go2) || !reflect.DeepEqual(reason, reason2) || !reflect.DeepEqual(want.Warnings, got.Warnings) {
			t.Fatalf("nodes %v agents %v:\norder %v, want %v\nreasons %v, want %v\nwarnings %v, want %v", nodes, agents, go2, wo, reason2, reason, got.Warnings, want.Warnings)
		}
	}
}

// BenchmarkBuildOrderManyPlugins orders 20,000 plugins (a repository's
// plugin directories) and 2,000 agent aliases, each fourth requiring the
// one before: vertices are found through an index and the ready ones kept
// in a heap (a linear search of both made it quadratic; the figures are in
// the commit that changed it).
func BenchmarkBuildOrderManyPlugins(b *testing.B) {
	var nodes []node
	var agents []AgentStatus
	for i := range 20_000 {
		n := node{id: fmt.Sprintf("p%05d", i)}
		if i%4 == 3 {
			n.requires = []string{fmt.Sprintf("p%05d", i-1)}
		}
		nodes = append(nodes, n)
	}
	for i := range 2_000 {
		alias := fmt.Sprintf("a%04d", i)
		nodes, agents = append(nodes, node{id: alias}), append(agents, AgentStatus{Alias: alias})
	}
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.id] = true
	}
	b.ReportAllocs()
	for b.Loop() {
		a := &Assembly{}
		if got := a.buildOrder(nodes, agents, known, map[string]string{}); len(got) != 20_000 {
			b.Fatalf("%d plugins ordered", len(got))
		}
	}
}

// BenchmarkRegisterHooksManyPlugins records the hooks of 20,000 enabled
// external plugins: each plugin's status is found by a binary search of
// the sorted Plugins (a linear one made it quadratic; the figures are in
// the commit that made it a search).
func BenchmarkRegisterHooksManyPlugins(b *testing.B) {
	a := &Assembly{manifests: map[string]*Manifest{}}
	for i := range 20_000 {
		id := fmt.Sprintf("p%05d", i)
		a.manifests[id] = &Manifest{ID: id, Path: id + "/manifest.yaml", Hooks: []ManifestHook{{Point: pointRunStart, OnError: onErrorContinue}}}
		a.Plugins = append(a.Plugins, PluginStatus{Descriptor: Descriptor{ID: id}, Enabled: true})
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Hooks = nil
		a.registerHooks()
		if len(a.Hooks) < 20_000 {
			b.Fatalf("%d hooks", len(a.Hooks))
		}
	}
}
