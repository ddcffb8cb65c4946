package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The rewrite's checks are subscripts of kitsoki's own values (bound as
// a file's globals by bindChecks), not calls of builtins: the interpreter copies a builtin call's arguments into a new
// tuple (one allocation per checked operator, a million in a loop of
// comparisons), while a subscript of a Mapping hands the key over as it
// is. x op y is written OP[x][y]: the first subscript keeps x on the
// budget's stack of pending operands and gives the second half, whose
// subscript by y takes x back, checks x op y and computes it. Between the
// two only y is evaluated, whose own checks push and pop in pairs; a y
// that fails leaves its x below the others, where no second half takes
// it (each takes the latest x, its own). A key k is KEY[k] and a method
// x.m is METHOD[x.m], one subscript each. Each gives back the steps its
// rewrite adds (a load and a subscript more than the operator as
// written), so a script counts the steps upstream counts.

// checkFirst is OP, the first half of a checked operator.
type checkFirst struct {
	checkValue
	right *checkSecond
}

// checkSecond is OP[x], the second half: Get(y) is x op y, checked.
type checkSecond struct {
	checkValue
	m      *memBudget
	refund uint64
	check  func(x, y starlark.Value) (starlark.Value, error)
}

// checkOne is KEY or METHOD: Get(v) is v (or v's checked method), once
// v's walk is counted.
type checkOne struct {
	checkValue
	m     *memBudget
	check func(v starlark.Value) (starlark.Value, error)
}

var (
	_ starlark.Mapping = (*checkFirst)(nil)
	_ starlark.Mapping = (*checkSecond)(nil)
	_ starlark.Mapping = (*checkOne)(nil)
	_ starlark.Mapping = (*checkTable)(nil)
)

func (c *checkFirst) Get(x starlark.Value) (starlark.Value, bool, error) {
	m := c.right.m
	m.pending = append(m.pending, x)
	return c.right, true, nil
}

func (c *checkSecond) Get(y starlark.Value) (starlark.Value, bool, error) {
	m := c.m
	n := len(m.pending)
	if n == 0 { // only the rewrite writes OP[x][y]
		return nil, false, fmt.Errorf("%s: no left operand", c)
	}
	x := m.pending[n-1]
	m.pending[n-1] = nil
	m.pending = m.pending[:n-1]
	m.giveBack(c.refund)
	v, err := c.check(x, y)
	return v, err == nil, err
}

func (c *checkOne) Get(v starlark.Value) (starlark.Value, bool, error) {
	c.m.giveBack(2)
	r, err := c.check(v)
	return r, err == nil, err
}

// checkValue is what a check is as a Starlark value, by its name.
type checkValue string

func (c checkValue) String() string        { return string(c) }
func (c checkValue) Type() string          { return "builtin_function_or_method" }
func (c checkValue) Freeze()               {}
func (c checkValue) Truth() starlark.Bool  { return true }
func (c checkValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: %s", c.Type()) }

// giveBack returns n steps to the thread running the script (none when
// no thread is bound: a test's own).
func (m *memBudget) giveBack(n uint64) {
	if m.th != nil {
		m.th.Steps -= min(n, m.th.Steps)
	}
}

// bind makes th the thread the checks give steps back to, until the
// returned func restores the one before (a loaded module runs on a thread
// of its own).
func (m *memBudget) bind(th *starlark.Thread) (restore func()) {
	prev := m.th
	m.th = th
	return func() { m.th = prev }
}

// opCheck is the checked operator c (grow: its augmented form, whose
// check gives y back for the assignment to apply), giving refund steps
// back.
func (m *memBudget) opCheck(name string, c *checkedOp, grow bool, refund uint64) *checkFirst {
	bound := c.bound
	if grow {
		bound = c.inplace
	}
	op, opName := c.op, c.op.String()
	check := func(x, y starlark.Value) (starlark.Value, error) {
		if op == syntax.STAR || op == syntax.LTLT {
			if n := intBits(op, x, y); n > maxIntBits {
				return nil, fmt.Errorf("the integer would have %d bits, over the limit of %d; keep integers smaller", n, maxIntBits)
			}
		}
		if bound != nil {
			if err := m.charge(bound(x, y)); err != nil {
				return nil, err
			}
		}
		if c.walk != nil {
			if err := c.walk(m.walkLimit, opName, x, y); err != nil {
				return nil, err
			}
		}
		if grow {
			return y, nil // x op= y goes on as written
		}
		switch op {
		case syntax.EQL, syntax.NEQ, syntax.LT, syntax.LE, syntax.GT, syntax.GE:
			ok, err := starlark.Compare(op, x, y)
			if err != nil {
				return nil, err
			}
			return starlark.Bool(ok), nil
		}
		return starlark.Binary(op, x, y)
	}
	return &checkFirst{checkValue(name), &checkSecond{checkValue: checkValue(name), m: m, refund: refund, check: check}}
}

// growName is the name of the augmented form of grow (a checkedOp's)
// that gives back refund steps: the rewrite's refund depends on the
// target it reads again, so there is one per count a file needs
// (predeclareGrows).
func growName(grow string, refund int) string {
	return grow + "_" + strconv.Itoa(refund)
}

// predeclareGrows adds to d the augmented forms f's rewrite names
// (growName), from their template d[grow], once.
func predeclareGrows(f *syntax.File, d starlark.StringDict) {
	syntax.Walk(f, func(n syntax.Node) bool {
		id, ok := n.(*syntax.Ident)
		if !ok || !strings.HasPrefix(id.Name, growPrefix) || d.Has(id.Name) {
			return true
		}
		i := strings.LastIndexByte(id.Name, '_')
		refund, err := strconv.Atoi(id.Name[i+1:])
		if t, ok := d[id.Name[:i]].(*checkFirst); ok && err == nil && refund >= 0 {
			r := *t.right
			r.checkValue, r.refund = checkValue(id.Name), uint64(refund)
			d[id.Name] = &checkFirst{checkValue(id.Name), &r}
		}
		return true
	})
}

// growPrefix starts the names of the augmented forms.
const growPrefix = "__kitsoki_grow_"

// checkIndex is OP[x][y], the rewrite of x op y (Lbrack at the operator:
// an error is reported where the operator is, as upstream's).
func checkIndex(name string, at syntax.Position, x, y syntax.Expr) *syntax.IndexExpr {
	_, end := y.Span()
	first := &syntax.IndexExpr{X: &syntax.Ident{NamePos: at, Name: name}, Lbrack: at, Y: x, Rbrack: at}
	return &syntax.IndexExpr{X: first, Lbrack: at, Y: y, Rbrack: end}
}

// checkOneIndex is NAME[e], the rewrite of a key or a method value e.
func checkOneIndex(name string, at syntax.Position, e syntax.Expr) *syntax.IndexExpr {
	_, end := e.Span()
	return &syntax.IndexExpr{X: &syntax.Ident{NamePos: at, Name: name}, Lbrack: at, Y: e, Rbrack: end}
}

// isCheck says n is one of the rewrite's subscripts (OP[x], OP[x][y],
// KEY[k], METHOD[x.m]): its operands are rewritten, its key is no key.
func isCheck(n *syntax.IndexExpr) bool {
	x := n.X
	if in, ok := x.(*syntax.IndexExpr); ok {
		x = in.X
	}
	id, ok := x.(*syntax.Ident)
	if !ok || !strings.HasPrefix(id.Name, reservedPrefix) {
		return false
	}
	return !strings.HasPrefix(id.Name, hoistPrefix)
}

// leaf says v holds no other value: comparing or hashing it reaches one
// node, and a comparison with it reaches one node of the other side.
// The checks count nothing for it.
func leaf(v starlark.Value) bool {
	switch v.(type) {
	case starlark.Int, starlark.String, starlark.Float, starlark.Bool, starlark.NoneType, starlark.Bytes:
		return true
	}
	return false
}

// stepCredit is the count a script's thread starts from, its limit
// raised by as much: bindChecks's statement gives back its steps, the
// stores after the subscript included, at the subscript, when a thread
// that starts from 0 has counted fewer.
const stepCredit = 1 << 10

// checksName is the predeclared table bindChecks reads the checks from.
const checksName = "__kitsoki_checks"

// checkTable is checksName: Get("A B …") is the checks named A, B, … (a
// tuple of them, or the one), giving back the steps of the statement
// that binds them.
type checkTable struct {
	checkValue
	m *memBudget
	d starlark.StringDict
}

func (c *checkTable) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := k.(starlark.String)
	if !ok {
		return nil, false, fmt.Errorf("%s: want a string", checksName)
	}
	names := strings.Fields(string(s))
	out := make(starlark.Tuple, len(names))
	for i, name := range names {
		if out[i] = c.d[name]; out[i] == nil {
			return nil, false, fmt.Errorf("%s: no check %s", checksName, name)
		}
	}
	// the load of the table, the constant, the subscript and a store
	// each (and the unpacking of more than one)
	refund := 3 + len(names)
	if len(out) == 1 {
		c.m.giveBack(uint64(refund))
		return out[0], true, nil
	}
	c.m.giveBack(uint64(refund + 1))
	return out, true, nil
}

// bindChecks makes the checks f's rewrite names globals of f, bound by a
// first statement A, B, … = __kitsoki_checks["A B …"]: a global is read
// from the module's slice, a predeclared name from a map by its name
// (a fifth of a comparison loop's time went to that lookup). A name left
// out is still read as predeclared.
func bindChecks(f *syntax.File, d starlark.StringDict) {
	seen := map[string]bool{}
	var names []string
	var at syntax.Position
	syntax.Walk(f, func(n syntax.Node) bool {
		id, ok := n.(*syntax.Ident)
		if !ok || seen[id.Name] {
			return true
		}
		switch d[id.Name].(type) {
		case *checkFirst, *checkOne:
			if len(names) == 0 {
				at = id.NamePos
			}
			seen[id.Name] = true
			names = append(names, id.Name)
		}
		return true
	})
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	var lhs syntax.Expr
	if len(names) == 1 {
		lhs = &syntax.Ident{NamePos: at, Name: names[0]}
	} else {
		t := &syntax.TupleExpr{Lparen: at, Rparen: at}
		for _, name := range names {
			t.List = append(t.List, &syntax.Ident{NamePos: at, Name: name})
		}
		lhs = t
	}
	key := strings.Join(names, " ")
	rhs := &syntax.IndexExpr{X: &syntax.Ident{NamePos: at, Name: checksName}, Lbrack: at, Y: &syntax.Literal{Token: syntax.STRING, TokenPos: at, Raw: strconv.Quote(key), Value: key}, Rbrack: at}
	f.Stmts = append([]syntax.Stmt{&syntax.AssignStmt{OpPos: at, Op: syntax.EQ, LHS: lhs, RHS: rhs}}, f.Stmts...)
}
