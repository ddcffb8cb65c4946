package expr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr/file"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
)

// ErrorKind says which stage produced an Error.
type ErrorKind int

const (
	// KindCompile is an expr-lang parse or type-check error.
	KindCompile ErrorKind = iota + 1
	// KindWhitelist is a whitelist violation.
	KindWhitelist
	// KindTemplate is a structural error in a {{ }} value template.
	KindTemplate
	// KindEval is a run-time evaluation error.
	KindEval
	// KindPongo is a pongo2 parse or execution error.
	KindPongo
)

var kindNames = [...]string{KindCompile: "compile", KindWhitelist: "whitelist", KindTemplate: "template", KindEval: "eval", KindPongo: "pongo"}

func (k ErrorKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Error is every error this package returns. Msg is the full message
// (upstream's wording where one exists); Line and Col (1-based, runes, 0
// when unknown) point into Src, the text the caller handed in.
type Error struct {
	Kind ErrorKind
	Msg  string
	Src  string
	Line int
	Col  int
	// Path is the dotted location in a value tree ("items[2]") for errors of
	// RenderValue, CompileValue and PrepareValue; not part of Msg.
	Path string
	// Err is the underlying library error, if any.
	Err error
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// exprPos extracts a 1-based line and column from an expr-lang error.
func exprPos(err error) (line, col int) {
	var fe *file.Error
	if errors.As(err, &fe) && fe.Line > 0 {
		return fe.Line, fe.Column + 1
	}
	return 0, 0
}

func compileError(src string, err error) *Error {
	line, col := exprPos(err)
	return &Error{Kind: KindCompile, Msg: fmt.Sprintf("expr compile %q: %s", src, err.Error()), Src: src, Line: line, Col: col, Err: err}
}

func evalError(src string, err error) *Error {
	line, col := exprPos(err)
	return &Error{Kind: KindEval, Msg: fmt.Sprintf("expr eval %q: %s", src, plainText(err.Error())), Src: src, Line: line, Col: col, Err: err}
}

// The Go run-time texts expr-lang passes through when a built-in meets a
// value of the wrong type.
var (
	goConversion = &lazyre.Regexp{Expr: `interface conversion: interface \{\} is ([^,]+), not ([^\s(]+)`}
	goReflect    = &lazyre.Regexp{Expr: `reflect: call of reflect\.Value\.\w+ on zero Value`}
	goVerb       = &lazyre.Regexp{Expr: `%!\w\((<nil>|[^)]*)\)`}
	goConvertOp  = &lazyre.Regexp{Expr: `invalid operation: (\w+)\(([^()]*interface \{\}[^()]*)\)`}
)

// plainText rewrites Go run-time texts of an evaluation error into words
// the author can act on ("nil (an unset world key or slot?) where ...").
func plainText(msg string) string {
	msg = goConversion.ReplaceAllStringFunc(msg, func(m string) string {
		p := goConversion.FindStringSubmatch(m)
		return fmt.Sprintf("%s where %s is needed", valueDesc(p[1]), neededDesc(p[2]))
	})
	msg = goConvertOp.ReplaceAllStringFunc(msg, func(m string) string {
		p := goConvertOp.FindStringSubmatch(m)
		return fmt.Sprintf("invalid operation: %s where %s is needed", valueDesc(p[2]), neededDesc(p[1]))
	})
	msg = goReflect.ReplaceAllString(msg, unsetDesc+" where a value is needed")
	msg = goVerb.ReplaceAllStringFunc(msg, func(m string) string {
		if p := goVerb.FindStringSubmatch(m); p[1] != "<nil>" {
			return p[1]
		}
		return "nil"
	})
	msg = strings.ReplaceAll(msg, "cannot get keys from invalid", "cannot get keys from "+unsetDesc)
	msg = strings.NewReplacer("map[string]interface {}", jsonvalue.KindObject, "[]interface {}", jsonvalue.KindList, "interface {}", "any").Replace(msg)
	msg = strings.ReplaceAll(msg, "runtime error: integer divide by zero", "integer division by zero")
	return strings.ReplaceAll(msg, "runtime error: ", "")
}

// valueDesc names the Go type a value had in a run-time text in story
// words (jsonvalue's: "a number", "an object", "a list", "true/false");
// nil is an unset key, and a []uint8 (what a regular expression reads) a
// string.
func valueDesc(goType string) string {
	switch {
	case goType == "nil":
		return unsetDesc
	case goType == "string" || goType == "[]uint8":
		return jsonvalue.WithArticle(jsonvalue.KindString)
	case goType == "bool":
		return jsonvalue.WithArticle(jsonvalue.KindBool)
	case strings.HasPrefix(goType, "map["):
		return jsonvalue.WithArticle(jsonvalue.KindObject)
	case strings.HasPrefix(goType, "[]"):
		return jsonvalue.WithArticle(jsonvalue.KindList)
	case strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "uint") || strings.HasPrefix(goType, "float"):
		return jsonvalue.WithArticle(jsonvalue.KindNumber)
	}
	return "a " + goType
}

// describe names a value in the words of valueDesc.
func describe(v any) string {
	if v == nil {
		return unsetDesc
	}
	return jsonvalue.WithArticle(jsonvalue.Kind(v))
}

const unsetDesc = "nil (an unset world key or slot?)"

// neededDesc names the kind of value a built-in needed.
func neededDesc(goType string) string {
	d := valueDesc(goType)
	if strings.HasPrefix(d, "nil") {
		return "nothing"
	}
	return d
}

// shift re-bases an error raised for an expression at rune offset col on
// line of outer, which becomes Src.
func (e *Error) shift(outer string, line, col int) *Error {
	c := *e
	c.Src = outer
	if e.Line <= 1 && e.Col > 0 {
		c.Line = line
		c.Col = col + e.Col - 1
	} else if e.Line > 1 {
		c.Line = line + e.Line - 1
	} else {
		c.Line, c.Col = line, col
	}
	return &c
}

// runeCol converts a byte offset in s to a 1-based line and rune column.
func runeCol(s string, off int) (line, col int) {
	line, col = 1, 1
	for i, r := range s {
		if i >= off {
			break
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
