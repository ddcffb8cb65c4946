package cmd

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// maxKitsokiInitAllocs bounds the heap allocations the kitsoki packages'
// initialisation makes before any command runs, every command paying it.
// Nearly all of it is pkg/story/expr's pongo2 set-up: the size-checked
// filters compile pongo2's own filter into a template before replacing it,
// which cannot wait for a first use. A package-level regexp.MustCompile
// costs tens to hundreds of allocations (use internal/lazyre), a big map literal
// one per few entries (build it on first use with sync.OnceValue).
const maxKitsokiInitAllocs = 1200

// TestStartupInitWork runs the built kitsoki with the runtime's init trace
// and holds the kitsoki packages' initialisation under its budget, naming
// the packages that spend most when it is over.
func TestStartupInitWork(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	c := exec.Command(bin, "--version")
	c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("kitsoki --version: %v\n%s", err, stderr.String())
	}
	pkgs, err := kitsokiInitAllocs(stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("the init trace names %d kitsoki packages, want the dozens the binary links:\n%s", len(pkgs), stderr.String())
	}
	total := 0
	for _, p := range pkgs {
		total += p.allocs
	}
	if total > maxKitsokiInitAllocs {
		sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].allocs > pkgs[j].allocs })
		var top strings.Builder
		for _, p := range pkgs[:min(5, len(pkgs))] {
			fmt.Fprintf(&top, "\n  %s: %d allocations", p.name, p.allocs)
		}
		t.Errorf("the kitsoki packages' initialisation makes %d allocations, over the budget of %d; make the new package-level work lazy (internal/lazyre, sync.OnceValue). Most:%s", total, maxKitsokiInitAllocs, top.String())
	}
}

// initCost is one package's line of the init trace.
type initCost struct {
	name   string
	allocs int
}

// kitsokiInitAllocs reads GODEBUG=inittrace=1 output ("init PKG @T ms, C ms
// clock, B bytes, A allocs") and returns the kitsoki packages' allocations.
func kitsokiInitAllocs(trace string) ([]initCost, error) {
	var out []initCost
	sc := bufio.NewScanner(strings.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || f[0] != "init" || !strings.HasPrefix(f[1], "kitsoki/") && f[1] != "kitsoki" {
			continue
		}
		if f[len(f)-1] != "allocs" {
			return nil, fmt.Errorf("init trace line %q does not end in its allocations", sc.Text())
		}
		n, err := strconv.Atoi(f[len(f)-2])
		if err != nil {
			return nil, fmt.Errorf("init trace line %q: %v", sc.Text(), err)
		}
		out = append(out, initCost{f[1], n})
	}
	return out, sc.Err()
}
