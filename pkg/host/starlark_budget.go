package host

import (
	"cmp"
	"fmt"
	"math/bits"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A script's budget. Steps: one count per host.starlark.run call, shared
// by the script and every module it loads (newModuleLoader). Memory: Go
// cannot cap one goroutine's heap, so the operations that make a large
// value from small ones in one step are checked before they allocate:
// `+`, `*` and `%` (and `+=`, `*=`, `%=`) are rewritten, when the file is
// compiled, into checked operations (starlark_checks.go), and range() refuses more than
// maxRangeLen elements. Comparisons, in, subscripts, dict keys and the
// set operators are rewritten the same way, to count the walk they make
// (starlark_walk.go). A value over maxValueBytes is an error, and so is
// producing more than maxBigBytes in values of 1 MiB or more during one
// call; the script's error goes to the story's on_error and the process
// lives on.
const (
	maxValueBytes = 64 << 20
	maxBigBytes   = 1 << 30
	bigValue      = 1 << 20
	maxRangeLen   = 1 << 24
	// maxIntBits bounds the integers * and << make, and maxIntDigits the
	// string int() parses: big.Int's decimal conversions are quadratic,
	// in one step no cancel interrupts, and squaring an integer in a
	// loop doubles it each step until memory runs out.
	maxIntBits   = 1 << 20
	maxIntDigits = maxIntBits / 3
	// slotBytes is what one element of a list or tuple costs.
	slotBytes = 16
)

// checkedOp is an operator the rewrite turns into checked operations
// (starlark_checks.go): x op y into call[x][y], x assign y into x assign
// grow_<steps>[x][y]. Their names start with reservedPrefix, which a script's own
// source may not use (reservedNames), and are predeclared only for
// rewritten code.
type checkedOp struct {
	op, assign syntax.Token
	call, grow string
	// bound is x op y's, inplace x op= y's (+= extends a list by any
	// iterable); nil for an operator that grows no sequence.
	bound, inplace func(x, y starlark.Value) uint64
	// walk bounds the comparisons and hashes x op y makes
	// (starlark_walk.go); nil for an operator that makes none.
	walk func(limit int, op string, x, y starlark.Value) error
}

var checkedOps = []checkedOp{
	{syntax.PLUS, syntax.PLUS_EQ, "__kitsoki_add", "__kitsoki_grow_add", sizeOfAdd, sizeOfExtend, nil},
	{syntax.STAR, syntax.STAR_EQ, "__kitsoki_mul", "__kitsoki_grow_mul", sizeOfMul, sizeOfMul, nil},
	{syntax.PERCENT, syntax.PERCENT_EQ, "__kitsoki_mod", "__kitsoki_grow_mod", sizeOfMod, sizeOfMod, nil},
	{syntax.LTLT, syntax.LTLT_EQ, "__kitsoki_shl", "__kitsoki_grow_shl", nil, nil, nil}, // its integers are intBits's,
	// the operators of sets and dicts hash every element of both
	{syntax.MINUS, syntax.MINUS_EQ, "__kitsoki_sub", "__kitsoki_grow_sub", nil, nil, keysWalk},
	{syntax.PIPE, syntax.PIPE_EQ, "__kitsoki_or", "__kitsoki_grow_or", nil, nil, keysWalk},
	{syntax.AMP, syntax.AMP_EQ, "__kitsoki_and", "__kitsoki_grow_and", nil, nil, keysWalk},
	{syntax.CIRCUMFLEX, syntax.CIRCUMFLEX_EQ, "__kitsoki_xor", "__kitsoki_grow_xor", nil, nil, keysWalk},
	// comparisons and in, which have no augmented form (x not in y is
	// rewritten as not __kitsoki_in[x][y])
	{syntax.EQL, syntax.ILLEGAL, "__kitsoki_eq", "", nil, nil, compareWalk},
	{syntax.NEQ, syntax.ILLEGAL, "__kitsoki_ne", "", nil, nil, compareWalk},
	{syntax.LT, syntax.ILLEGAL, "__kitsoki_lt", "", nil, nil, compareWalk},
	{syntax.LE, syntax.ILLEGAL, "__kitsoki_le", "", nil, nil, compareWalk},
	{syntax.GT, syntax.ILLEGAL, "__kitsoki_gt", "", nil, nil, compareWalk},
	{syntax.GE, syntax.ILLEGAL, "__kitsoki_ge", "", nil, nil, compareWalk},
	{syntax.IN, syntax.ILLEGAL, "__kitsoki_in", "", nil, nil, containsWalk},
}

// checkedOpOf is the checkedOp whose op (or, with assign, whose assign) is
// tok.
func checkedOpOf(tok syntax.Token, assign bool) (checkedOp, bool) {
	for _, c := range checkedOps {
		if tok == c.op && !assign || tok == c.assign && assign {
			return c, true
		}
	}
	return checkedOp{}, false
}

// memBudget counts the large values one call produced, up to limit
// (0 = maxBigBytes), and the walks of comparisons and hashes
// (starlark_walk.go). th is the thread the checks give their steps back
// to (bind), pending the left operands of the checked operators being
// evaluated (starlark_checks.go).
type memBudget struct {
	big, limit int64
	// walkLimit replaces maxWalk for the walks counted (0 = maxWalk)
	walkLimit int
	// valueLimit replaces maxValueBytes for one value (0 = maxValueBytes)
	valueLimit int64
	th         *starlark.Thread
	pending    []starlark.Value
}

// valueMax is the bytes one value may take.
func (m *memBudget) valueMax() uint64 {
	if m == nil {
		return maxValueBytes
	}
	return uint64(cmp.Or(m.valueLimit, maxValueBytes))
}

func (m *memBudget) charge(n uint64) error {
	if m == nil { // a context built without a script (tests)
		return nil
	}
	if max := m.valueMax(); n > max {
		if n >= over { // a bound that stopped counting
			return fmt.Errorf("the result would be over the limit of %d per value, or nested over %d deep; build smaller values", max, maxNesting)
		}
		return fmt.Errorf("the result would take %d bytes, over the limit of %d per value; build smaller values", n, max)
	}
	if n >= bigValue {
		m.big += int64(n)
		if limit := cmp.Or(m.limit, maxBigBytes); m.big > limit {
			return fmt.Errorf("the script made more than %d bytes of large values; it was stopped to keep memory bounded", limit)
		}
	}
	return nil
}

// size is the bytes v holds directly (strings, bytes, lists, tuples), or
// -1 when + and * do not grow it.
func size(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.String:
		return int64(len(v))
	case starlark.Bytes:
		return int64(len(v))
	case *starlark.List:
		return int64(v.Len()) * slotBytes
	case starlark.Tuple:
		return int64(len(v)) * slotBytes
	}
	return -1
}

// sizeOfAdd and sizeOfMul bound the result of x+y and x*y (0 when it does
// not grow a sequence).
func sizeOfAdd(x, y starlark.Value) uint64 {
	a, b := size(x), size(y)
	if a < 0 || b < 0 {
		return 0
	}
	return uint64(a) + uint64(b)
}

// sizeOfExtend bounds x += y: a list extended by any iterable (a range,
// a dict, a set), else x + y.
func sizeOfExtend(x, y starlark.Value) uint64 {
	if l, ok := x.(*starlark.List); ok && size(y) < 0 {
		return mulSat(addSat(uint64(l.Len()), lenOf(y)), slotBytes)
	}
	return sizeOfAdd(x, y)
}

func sizeOfMul(x, y starlark.Value) uint64 {
	seq, n := x, y
	if size(seq) < 0 {
		seq, n = y, x
	}
	s := size(seq)
	k, ok := n.(starlark.Int)
	if s < 0 || !ok {
		return 0
	}
	times, exact := k.Int64()
	if !exact {
		return maxValueBytes + 1
	}
	if times <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(s), uint64(times))
	if hi != 0 {
		return maxValueBytes + 1
	}
	return lo
}

// intBits bounds the bits of x * y and x << y for integers (0 for any
// other operator or operand).
func intBits(op syntax.Token, x, y starlark.Value) uint64 {
	a, ok := x.(starlark.Int)
	b, ok2 := y.(starlark.Int)
	if !ok || !ok2 {
		return 0
	}
	switch op {
	case syntax.STAR:
		return bitLen(a) + bitLen(b)
	case syntax.LTLT:
		if n, ok := b.Int64(); ok && n > 0 && n < 512 { // upstream refuses other counts
			return bitLen(a) + uint64(n)
		}
	}
	return 0
}

func bitLen(x starlark.Int) uint64 {
	if v, ok := x.Int64(); ok {
		if v < 0 {
			v = -v // MinInt64 stays negative: 64 bits as uint64
		}
		return uint64(bits.Len64(uint64(v)))
	}
	return uint64(x.BigInt().BitLen())
}

// sizeOfMod bounds x % y when x is a string (0 otherwise: a number).
func sizeOfMod(x, y starlark.Value) uint64 {
	s, ok := x.(starlark.String)
	if !ok {
		return 0
	}
	var args []starlark.Value
	switch y := y.(type) {
	case starlark.Tuple:
		args = y
	case *starlark.Dict:
		for _, kv := range y.Items() {
			args = append(args, kv[1])
		}
	default:
		args = []starlark.Value{y}
	}
	return formatBound(string(s), "%", args...)
}

// predeclare adds the checked operators (starlark_checks.go), the
// bounded range and the guarded builtins (starlark_guard.go) to d.
func (m *memBudget) predeclare(d starlark.StringDict) {
	for i := range checkedOps {
		c := &checkedOps[i]
		// x op y as OP[x][y]: a load and a subscript more than as written
		d[c.call] = m.opCheck(c.call, c, false, 2)
		if c.grow != "" {
			d[c.grow] = m.opCheck(c.grow, c, true, 0) // growName's template
		}
	}
	d[checksName] = &checkTable{checkValue: checksName, m: m, d: d}
	rng := starlark.Universe["range"].(*starlark.Builtin)
	d["range"] = starlark.NewBuiltin("range", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		r, err := starlark.Call(th, rng, args, kw)
		if err != nil {
			return nil, err
		}
		if s, ok := r.(starlark.Sequence); ok && s.Len() > maxRangeLen {
			return nil, fmt.Errorf("range has %d elements, over the limit of %d", s.Len(), maxRangeLen)
		}
		return r, nil
	})
	m.predeclareGuards(d)
	m.predeclareWalks(d)
}
