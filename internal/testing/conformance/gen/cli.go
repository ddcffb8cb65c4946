package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// kinds are write's -kind values.
const kinds = "flow, legacy, tmpl, agent, view, starlark, host, intent, expect, import, phase, intentfix, lint, mutate, storymut or iface"

// run is the command line: write, diff or lintscore, each with -h.
func run(args []string, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: gen write [flags] DIR | gen diff DIR | gen lintscore DIR [NAME]\n(gen MODE -h lists a mode's flags)")
		if len(args) == 0 {
			return errors.New("name a mode: write, diff or lintscore")
		}
		return nil
	}
	switch args[0] {
	case "write":
		return runWrite(args[1:], stderr)
	case "diff":
		dirs, err := positional(flagSet("diff", "DIR", stderr), "DIR", args[1:], 1, 1)
		if err != nil {
			return err
		}
		differ, total, err := diffTree(os.Stdout, dirs[0])
		if err != nil {
			return err
		}
		fmt.Printf("gen diff: %d of %d comparable stories differ\n", differ, total)
		return nil
	case "lintscore":
		pos, err := positional(flagSet("lintscore", "DIR [NAME]", stderr), "DIR [NAME]", args[1:], 1, 2)
		if err != nil {
			return err
		}
		name := "validate.json"
		if len(pos) == 2 {
			name = pos[1]
		}
		s, unscored, err := lintScore(os.Stdout, pos[0], name)
		if err != nil {
			return err
		}
		printScore(os.Stdout, s, unscored)
		return nil
	}
	return fmt.Errorf("unknown mode %q (want write, diff or lintscore)", args[0])
}

// flagSet is a mode's flags, printing "usage: gen MODE [flags] ARGS" on -h.
func flagSet(mode, operands string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(mode, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gen %s [flags] %s\n", mode, operands)
		fs.PrintDefaults()
	}
	return fs
}

// positional parses args (flags may stand before, between and after the
// operands) and returns from min to max operands, none starting with '-':
// a directory named "-h" is a typo, not a place to write.
func positional(fs *flag.FlagSet, operands string, args []string, lo, hi int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		a := fs.Arg(0)
		if strings.HasPrefix(a, "-") {
			return nil, fmt.Errorf("%s: %q starts with '-': it is no flag of gen %s, and no directory is named so here (gen %s -h lists the flags)", fs.Name(), a, fs.Name(), fs.Name())
		}
		pos, args = append(pos, a), fs.Args()[1:]
	}
	if len(pos) < lo || len(pos) > hi {
		return nil, fmt.Errorf("usage: gen %s [flags] %s (got %d operands)", fs.Name(), operands, len(pos))
	}
	return pos, nil
}

// runWrite is gen write [flags] DIR.
func runWrite(args []string, stderr io.Writer) error {
	fs := flagSet("write", "DIR", stderr)
	n := fs.Int("n", 300, "stories to write, from 1 to 100000")
	seed := fs.Uint64("seed", 1, "the first story's seed (story i has seed+i)")
	kind := fs.String("kind", "flow", "the kind of story: "+kinds)
	from := fs.String("from", "", "mutate, storymut: the corpus of real stories to copy")
	real := fs.Bool("real", false, "host: fixtures that name host_bindings")
	cassettes := fs.Bool("cassettes", false, "starlark: HTTP cassettes in the real forms")
	text := fs.String("text", "", "view, tmpl, agent, flow, legacy: wide adds carriage returns, Indic conjuncts, Unicode 16/17 wide runes, U+FE0F and escape sequences to the text pools (texts.go)")
	coalesce := fs.String("coalesce", "", "tmpl, view: unspaced draws `??` without spaces around it, or with tabs or on one side")
	wrap := fs.Int("wrap", 0, "every kind: write each story as the imported child kid of this many one-state parents (wrap.go), its fixtures renamed as the fold renames")
	var o genOpts
	for _, b := range []struct {
		p          *bool
		name, help string
	}{
		{&o.known, "known", "add the forms known to differ (.inf, .nan, n's non-zero default, tmpl: ?? in an included file, storymut: an increment of a key with a non-zero default)"},
		{&o.emits, "emits", "flow, legacy: parallel emit: events on arms"},
		{&o.trail, "trail", "flow, legacy, mutate, storymut: a mark per turn"},
		{&o.extras, "extras", "flow, legacy: what the flow kind's draws leave out"},
		{&o.more, "more", "flow, legacy: constructs no other draw makes"},
		{&o.gates, "gates", "flow, legacy: decision gates"},
		{&o.override, "override", "flow, legacy: world_override: in the fixture"},
		{&o.deep, "deep", "flow, legacy: a third level of states"},
		{&o.jobs, "jobs", "flow: background jobs"},
		{&o.redirects, "redirects", "flow, legacy: failing calls' on_error aimed elsewhere"},
		{&o.wide, "wide", "flow, legacy: a third parallel region"},
		{&o.blocks, "blocks", "flow, legacy, tmpl, view, host: YAML block forms"},
		{&o.shapes, "shapes", "flow, legacy: effect entries of unusual shapes"},
		{&o.asserts, "asserts", "flow, legacy: the fixture assertions real fixtures use"},
		{&o.rare, "rare", "flow, legacy: what only hand-made fixtures had"},
		{&o.bindings, "bindings", "flow, legacy, agent, host: fixtures with host_bindings, and a claude stand-in at times"},
		{&o.vcs, "vcs", "host -real: git, git_worktree, local CI, tickets and workspace_manager on a repository the story makes"},
	} {
		fs.BoolVar(b.p, b.name, false, b.help)
	}
	pos, err := positional(fs, "DIR", args, 1, 1)
	if err != nil {
		return err
	}
	if *n < 1 || *n > 100000 {
		return fmt.Errorf("-n %d: want a count from 1 to 100000", *n)
	}
	if *text != "" && *text != "wide" {
		return fmt.Errorf("-text %q: want wide or nothing", *text)
	}
	if *coalesce != "" && *coalesce != "unspaced" {
		return fmt.Errorf("-coalesce %q: want unspaced or nothing", *coalesce)
	}
	o.text = textOpts{wide: *text == "wide", unspaced: *coalesce == "unspaced"}
	if *wrap < 0 || *wrap > 8 {
		return fmt.Errorf("-wrap %d: want a count of parents from 0 to 8", *wrap)
	}
	if err := writeKind(pos[0], *kind, *n, *seed, *from, *real, *cassettes, o); err != nil {
		return err
	}
	if *wrap == 0 {
		return nil
	}
	return wrapTree(pos[0], *wrap)
}

// writeKind writes n stories of kind into dir.
func writeKind(dir, kind string, n int, seed uint64, from string, real, cassettes bool, o genOpts) error {
	switch kind {
	case "flow":
		return write(dir, n, seed, o)
	case "legacy":
		o.legacy = true
		return write(dir, n, seed, o)
	case "tmpl":
		return writeTmplText(dir, n, seed, o.blocks, o.known, o.text)
	case "agent":
		return writeAgentText(dir, n, seed, o.bindings, o.text)
	case "view":
		return writeViewText(dir, n, seed, o.blocks, o.text)
	case "starlark":
		return writeStarlark(dir, n, seed, o.known, cassettes)
	case "host":
		if real && o.vcs {
			return writeHostVCS(dir, n, seed, o.bindings)
		}
		if real {
			return writeHostReal(dir, n, seed, o.bindings)
		}
		return writeHost(dir, n, seed, o.blocks, o.bindings)
	case "intent":
		return writeIntent(dir, n, seed)
	case "iface":
		return writeIface(dir, n, seed)
	case "expect":
		return writeExpect(dir, n, seed)
	case "import":
		return writeImport(dir, n, seed)
	case "phase":
		return writePhase(dir, n, seed)
	case "intentfix":
		return writeIntentFix(dir, n, seed)
	case "lint":
		return writeLint(dir, n, seed)
	case "mutate":
		return writeMutate(dir, n, seed, from, o.trail)
	case "storymut":
		return writeStorymut(dir, n, seed, from, o.trail, o.known)
	}
	return fmt.Errorf("-kind %q: want %s", kind, kinds)
}
