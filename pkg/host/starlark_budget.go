package host

import (
	"cmp"
	"fmt"
	"math/bits"
	"strings"

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

func (m *memBudget) charge(n uint64) error {
	if m == nil { // a context built without a script (tests)
		return nil
	}
	if max := uint64(cmp.Or(m.valueLimit, maxValueBytes)); n > max {
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

// checkedProgram parses and compiles src with + and * rewritten into the
// checked operations (see rewriteGrowth).
func checkedProgram(opts *syntax.FileOptions, filename string, src []byte, predeclared starlark.StringDict) (*starlark.Program, error) {
	if line, col, n := longDigits(src); n > 0 {
		return nil, syntax.Error{Pos: syntax.MakePosition(&filename, int32(line), int32(col)), Msg: fmt.Sprintf("%d digits in a row, over the limit of %d for an integer; keep long digit strings in a data file", n, maxIntDigits)}
	}
	f, err := opts.Parse(filename, src, 0)
	if err != nil {
		return nil, err
	}
	if err := reservedNames(f); err != nil {
		return nil, err
	}
	rewriteGrowth(f)
	if opts.TopLevelControl {
		bindEarly(f)
	}
	predeclareGrows(f, predeclared)
	bindChecks(f, predeclared)
	return starlark.FileProgram(f, predeclared.Has)
}

// reservedPrefix starts every name the rewrite adds (the checks,
// checksName, hoistPrefix).
const reservedPrefix = "__kitsoki"

// reservedNames refuses a file that names one of the rewrite's names: a
// script's own global of that name would stand in for the predeclared
// checked builtin (def __kitsoki_grow_mul(x, y, n): return y turned every
// checked *= off).
func reservedNames(f *syntax.File) error {
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		if id, ok := n.(*syntax.Ident); ok && err == nil && strings.HasPrefix(id.Name, reservedPrefix) {
			err = syntax.Error{Pos: id.NamePos, Msg: fmt.Sprintf("the name %s is reserved for kitsoki's checks; rename it", id.Name)}
		}
		return err == nil
	})
	return err
}

// rewriteGrowth rewrites f's checkedOps everywhere (x + y into
// __kitsoki_add[x][y]; x += y into x += __kitsoki_grow_add_<steps>[x][y]
// when x can be read twice without side effects: see pureCopy) and x.m
// into __kitsoki_method[x.m] for a guarded or walked method m; x not in y
// into not __kitsoki_in[x][y], and a subscript's or dict entry's key k
// that is no literal into __kitsoki_key[k]. A parameter's default is the
// Y of its x=default.
func rewriteGrowth(f *syntax.File) {
	f.Stmts = hoistTargets(f.Stmts)
	syntax.Walk(f, func(n syntax.Node) bool {
		if !growStmt(n) {
			growExpr(n)
		}
		return true
	})
}

// growStmt rewrites the expressions a statement holds; false when n is no
// statement that holds one.
func growStmt(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.ExprStmt:
		n.X = growCall(n.X)
	case *syntax.IfStmt:
		n.Cond = growCall(n.Cond)
	case *syntax.WhileStmt:
		n.Cond = growCall(n.Cond)
	case *syntax.ForStmt:
		n.X = growCall(n.X)
	case *syntax.ReturnStmt:
		n.Result = growCall(n.Result)
	case *syntax.AssignStmt:
		n.RHS = growCall(n.RHS)
		if c, ok := checkedAssign(n); ok {
			if lhs, pure := pureCopy(n.LHS); pure {
				// the steps to give back: the load of GROW, the re-read
				// of the target and two subscripts, and a store and a
				// load for each part hoistTargets set aside
				extra := readSteps(lhs) + 3 + 2*hoisted(lhs)
				n.RHS = checkIndex(growName(c.grow, extra), n.OpPos, lhs, n.RHS)
			}
		}
	default:
		return false
	}
	return true
}

// growExpr rewrites the expressions an expression holds.
func growExpr(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.BinaryExpr:
		n.X, n.Y = growCall(n.X), growCall(n.Y)
	case *syntax.UnaryExpr:
		n.X = growCall(n.X)
	case *syntax.ParenExpr:
		n.X = growCall(n.X)
	case *syntax.CallExpr:
		n.Fn = methodCall(growCall(n.Fn))
		growAll(n.Args)
	case *syntax.IndexExpr:
		if isCheck(n) { // the rewrite's own: x or y of OP[x][y]
			n.Y = growCall(n.Y)
			return
		}
		n.X, n.Y = growCall(n.X), keyCall(growCall(n.Y))
	case *syntax.SliceExpr:
		n.X, n.Lo, n.Hi, n.Step = growCall(n.X), growCall(n.Lo), growCall(n.Hi), growCall(n.Step)
	case *syntax.DotExpr:
		n.X = growCall(n.X)
	case *syntax.CondExpr:
		n.Cond, n.True, n.False = growCall(n.Cond), growCall(n.True), growCall(n.False)
	case *syntax.ListExpr:
		growAll(n.List)
	case *syntax.TupleExpr:
		growAll(n.List)
	case *syntax.DictEntry:
		n.Key, n.Value = keyCall(growCall(n.Key)), growCall(n.Value)
	case *syntax.Comprehension:
		n.Body = growCall(n.Body)
	case *syntax.ForClause:
		n.X = growCall(n.X)
	case *syntax.IfClause:
		n.Cond = growCall(n.Cond)
	case *syntax.LambdaExpr:
		n.Body = growCall(n.Body)
	}
}

// growAll replaces each expression of list by its growCall.
func growAll(list []syntax.Expr) {
	for i, e := range list {
		list[i] = growCall(e)
	}
}

// growCall returns e (nil included), or the checked call that replaces e
// when e is x op y for a checkedOp (x not in y: not __kitsoki_in[x][y]).
// An operator that only walks (a comparison, in, a set operator) with a
// literal operand walks nothing of note and stays as written.
func growCall(e syntax.Expr) syntax.Expr {
	b, ok := e.(*syntax.BinaryExpr)
	if !ok {
		return e
	}
	op := b.Op
	if op == syntax.NOT_IN {
		op = syntax.IN
	}
	c, ok := checkedOpOf(op, false)
	if !ok || c.walk != nil && (isLiteral(b.X) || isLiteral(b.Y)) || op == syntax.PLUS && (isNumber(b.X) || isNumber(b.Y)) {
		return e
	}
	call := checkIndex(c.call, b.OpPos, b.X, b.Y)
	if b.Op == syntax.NOT_IN {
		return &syntax.UnaryExpr{OpPos: b.OpPos, Op: syntax.NOT, X: call}
	}
	return call
}

// checkedAssign is the checkedOp of an augmented assignment the rewrite
// checks: not one that only walks with a literal right side (x -= 1),
// nor x += n of a number n (it grows no sequence: a string or a list
// plus a number is upstream's error, an integer gains a bit at most).
func checkedAssign(st *syntax.AssignStmt) (checkedOp, bool) {
	c, ok := checkedOpOf(st.Op, true)
	return c, ok && (c.walk == nil || !isLiteral(st.RHS)) && (st.Op != syntax.PLUS_EQ || !isNumber(st.RHS))
}

// isNumber says e is a number literal, or one negated.
func isNumber(e syntax.Expr) bool {
	if u, ok := e.(*syntax.UnaryExpr); ok && u.Op != syntax.NOT {
		e = u.X
	}
	l, ok := e.(*syntax.Literal)
	return ok && (l.Token == syntax.INT || l.Token == syntax.FLOAT)
}

// readSteps is the instructions reading a pureCopy expression takes.
func readSteps(e syntax.Expr) int {
	switch e := e.(type) {
	case *syntax.DotExpr:
		return readSteps(e.X) + 1
	case *syntax.IndexExpr:
		return readSteps(e.X) + readSteps(e.Y) + 1
	}
	return 1
}

// pureCopy copies e when reading it has no side effects (names, literals,
// and attributes and indexes of those; parentheses are dropped).
func pureCopy(e syntax.Expr) (syntax.Expr, bool) {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return pureCopy(e.X)
	case *syntax.Ident:
		return &syntax.Ident{NamePos: e.NamePos, Name: e.Name}, true
	case *syntax.Literal:
		c := *e
		return &c, true
	case *syntax.DotExpr:
		x, ok := pureCopy(e.X)
		if !ok {
			return nil, false
		}
		return &syntax.DotExpr{X: x, Dot: e.Dot, NamePos: e.NamePos, Name: &syntax.Ident{NamePos: e.Name.NamePos, Name: e.Name.Name}}, true
	case *syntax.IndexExpr:
		x, okX := pureCopy(e.X)
		y, okY := pureCopy(e.Y)
		if !okX || !okY {
			return nil, false
		}
		return &syntax.IndexExpr{X: x, Lbrack: e.Lbrack, Y: y, Rbrack: e.Rbrack}, true
	}
	return nil, false
}

// hoistPrefix starts the names hoistTargets binds.
const hoistPrefix = "__kitsoki_t"

// hoistTargets rewrites, in stmts and the statement lists they hold, an
// augmented assignment of a checked operator whose target pureCopy
// cannot copy (a[f()] += s, l[-1] *= n, f().x += s) into assignments of
// the target's impure parts to fresh names, then the augmented assignment
// on those names, which pureCopy copies:
//
//	__kitsoki_t3_5_0 = f()
//	a[__kitsoki_t3_5_0] += s
//
// The parts are evaluated once, in the order the compiler evaluates them
// (the container, then the index), before the target is read.
func hoistTargets(stmts []syntax.Stmt) []syntax.Stmt {
	var out []syntax.Stmt
	for _, st := range stmts {
		switch st := st.(type) {
		case *syntax.DefStmt:
			st.Body = hoistTargets(st.Body)
		case *syntax.ForStmt:
			st.Body = hoistTargets(st.Body)
		case *syntax.WhileStmt:
			st.Body = hoistTargets(st.Body)
		case *syntax.IfStmt:
			st.True, st.False = hoistTargets(st.True), hoistTargets(st.False)
		case *syntax.AssignStmt:
			if _, ok := checkedAssign(st); ok {
				if _, pure := pureCopy(st.LHS); !pure {
					var parts []syntax.Stmt
					st.LHS, parts = hoistParts(st)
					out = append(out, parts...)
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// hoistParts is st's target with its impure container and index replaced
// by fresh names, and the assignments that bind them.
func hoistParts(st *syntax.AssignStmt) (syntax.Expr, []syntax.Stmt) {
	var parts []syntax.Stmt
	part := func(e syntax.Expr) syntax.Expr {
		if _, pure := pureCopy(e); pure {
			return e
		}
		start, _ := e.Span()
		name := fmt.Sprintf("%s%d_%d_%d", hoistPrefix, st.OpPos.Line, st.OpPos.Col, len(parts))
		parts = append(parts, &syntax.AssignStmt{OpPos: start, Op: syntax.EQ, LHS: &syntax.Ident{NamePos: start, Name: name}, RHS: e})
		return &syntax.Ident{NamePos: start, Name: name}
	}
	switch lhs := unparen(st.LHS).(type) {
	case *syntax.IndexExpr:
		x := part(lhs.X)
		return &syntax.IndexExpr{X: x, Lbrack: lhs.Lbrack, Y: part(lhs.Y), Rbrack: lhs.Rbrack}, parts
	case *syntax.DotExpr:
		return &syntax.DotExpr{X: part(lhs.X), Dot: lhs.Dot, NamePos: lhs.NamePos, Name: lhs.Name}, parts
	}
	return st.LHS, nil // a target the resolver refuses
}

// hoisted counts the names hoistTargets bound in a target.
func hoisted(e syntax.Expr) int {
	switch e := e.(type) {
	case *syntax.Ident:
		if strings.HasPrefix(e.Name, hoistPrefix) {
			return 1
		}
	case *syntax.DotExpr:
		return hoisted(e.X)
	case *syntax.IndexExpr:
		return hoisted(e.X) + hoisted(e.Y)
	}
	return 0
}

// bindEarly makes the globals that a top-level x op= y binds first known
// before it: the resolver reads a top-level name as it meets it, and the
// rewrite reads x in the statement's right side (x += grow(x, y)), before
// the statement binds it; `for i in r: if i: s += s` then `s = "x"` below
// compiled as written and was "undefined: s" rewritten. A statement
// `if 0: x = None` binds each such name and runs nothing of it (its
// condition and jump cost the script two steps; the name stays unset, and
// reading it before it is set is upstream's error). It stands just before
// the statement, or before the loop around it, not at the file's start:
// a use of x above still reads what it reads as written (`A = set` then
// `if 0: set %= 1` binds A to the built-in set, and ran rewritten into
// "global variable set referenced before assignment").
func bindEarly(f *syntax.File) {
	bound := map[string]bool{}
	f.Stmts = bindEarlyIn(f.Stmts, bound)
}

// bindEarlyIn is stmts, a block at top level outside any loop, with each
// early binding bindEarly needs just before the statement needing it (a
// loop's, before the loop: it runs once).
func bindEarlyIn(stmts []syntax.Stmt, bound map[string]bool) []syntax.Stmt {
	var out []syntax.Stmt
	for _, st := range stmts {
		var early []syntax.Stmt
		switch st := st.(type) {
		case *syntax.IfStmt:
			st.True = bindEarlyIn(st.True, bound)
			st.False = bindEarlyIn(st.False, bound)
		default:
			early = earlyBinds([]syntax.Stmt{st}, bound, nil)
		}
		if len(early) > 0 {
			at, _ := early[0].Span()
			// a literal 0, not False: a script may bind a global named False
			out = append(out, &syntax.IfStmt{If: at, Cond: &syntax.Literal{Token: syntax.INT, TokenPos: at, Raw: "0", Value: int64(0)}, True: early})
		}
		out = append(out, st)
	}
	return out
}

// earlyBinds appends to early a binding `x = None` for each x that a
// checked x op= y in stmts binds first, in order, and marks what stmts
// bind as bound.
func earlyBinds(stmts []syntax.Stmt, bound map[string]bool, early []syntax.Stmt) []syntax.Stmt {
	var bindAll func(e syntax.Expr)
	bindAll = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Ident:
			bound[e.Name] = true
		case *syntax.ParenExpr:
			bindAll(e.X)
		case *syntax.TupleExpr:
			for _, x := range e.List {
				bindAll(x)
			}
		case *syntax.ListExpr:
			for _, x := range e.List {
				bindAll(x)
			}
		}
	}
	for _, st := range stmts {
		switch st := st.(type) {
		case *syntax.AssignStmt:
			if _, checked := checkedAssign(st); checked {
				if id, ok := unparen(st.LHS).(*syntax.Ident); ok && !bound[id.Name] {
					early = append(early, &syntax.AssignStmt{OpPos: id.NamePos, Op: syntax.EQ, LHS: &syntax.Ident{NamePos: id.NamePos, Name: id.Name}, RHS: &syntax.Ident{NamePos: id.NamePos, Name: "None"}})
				}
			}
			bindAll(st.LHS)
		case *syntax.DefStmt:
			bound[st.Name.Name] = true
		case *syntax.ForStmt:
			bindAll(st.Vars)
			early = earlyBinds(st.Body, bound, early)
		case *syntax.WhileStmt:
			early = earlyBinds(st.Body, bound, early)
		case *syntax.IfStmt:
			early = earlyBinds(st.True, bound, early)
			early = earlyBinds(st.False, bound, early)
		case *syntax.LoadStmt:
			for _, id := range st.To {
				bound[id.Name] = true
			}
		}
	}
	return early
}

// unparen is e without the parentheses around it.
func unparen(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
