package host

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

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
