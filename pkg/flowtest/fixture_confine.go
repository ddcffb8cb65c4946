package flowtest

import (
	"cmp"
	"slices"
)

// opensPaths are the keys of the fixture naming a file that kitsoki test
// reads before the first turn: the recording when the fixture opens it
// (and --recording does not replace it), and each cassette that is set.
func (fr *fixtureRun) opensPaths() []namedFile {
	fx := fr.fx
	var out []namedFile
	if fr.r.opts.Recording == "" && fx.Recording != "" && fx.opensRecording() {
		out = append(out, namedFile{"recording", fx.Recording})
	}
	for _, nf := range fx.cassettes() {
		if nf.path != "" {
			out = append(out, nf)
		}
	}
	return out
}

// confined refuses, all at once, every file the fixture opens before its
// first turn that leaves the project root or lies inside a .git directory,
// each at its value, where validate's flow-outside-root finding is, in
// the file's order as validate prints them: the first is the fixture's
// fatal failure, the others session failures beside it. False when any was
// refused.
func (fr *fixtureRun) confined() bool {
	var refused []Failure
	for _, nf := range fr.opensPaths() {
		if _, err := fr.resolve(nf.key, nf.path); err != nil {
			refused = append(refused, Failure{Turn: -1, Pos: fr.fx.valueAt(nf.key), Message: err.Error()})
		}
	}
	if len(refused) == 0 {
		return true
	}
	slices.SortFunc(refused, func(a, b Failure) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	fr.fatal(refused[0].Pos, "%s", refused[0].Message)
	fr.res.Failures = append(fr.res.Failures, refused[1:]...)
	return false
}
