package expr

import "github.com/expr-lang/expr/ast"

// OnlyReads reports a template whose render fails on no environment whose
// roots are maps (world, slots): it has no {{ if }} or {{ range }}, and
// each of its expressions reads one member of a root by name (root.K,
// root?.K, root["K"]) or is a literal. A root missing from the
// environment reads empty, and a missing key nil, so nothing in it can
// fail to evaluate (an operator, a condition, a member of a member may).
func (t *Template) OnlyReads() bool {
	for _, n := range t.nodes {
		switch x := n.(type) {
		case tText:
		case *tExpr:
			if !onlyRead(x.prog.prog.Node()) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// onlyRead reports a node that is root.K (optional or indexed by a
// string literal) or a literal.
func onlyRead(n ast.Node) bool {
	switch x := unchain(n).(type) {
	case *ast.MemberNode:
		_, root := unchain(x.Node).(*ast.IdentifierNode)
		_, named := x.Property.(*ast.StringNode)
		return root && named && !x.Method
	case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode:
		return true
	}
	return false
}
