package trace

import "fmt"

// Rule names a read-time rule (one per row of the reference's table).
type Rule string

// The read-time rules, in the order the reference checks them.
const (
	RuleTrailingNewline Rule = "missing-trailing-newline"
	RuleCRLF            Rule = "crlf"
	RuleNUL             Rule = "nul"
	RuleHeaderMissing   Rule = "header-missing"
	RuleHeaderJSON      Rule = "header-json"
	RuleHeaderKind      Rule = "header-kind"
	RuleSchemaVersion   Rule = "schema-version"
	RuleJSON            Rule = "json"
	RuleDuplicateHeader Rule = "duplicate-header"
	RuleUnmarshal       Rule = "unmarshal"
	RuleBlob            Rule = "blob"
	RuleTurnOrder       Rule = "turn-order"
	RuleSeqDuplicate    Rule = "seq-duplicate"
	RuleSeqOrder        Rule = "seq-order"
	RuleSeqGap          Rule = "seq-gap"
	RuleLineTooLong     Rule = "line-too-long" // kitsoki addition: a bounded line length
	RuleRead            Rule = "read"          // an I/O error while reading
)

// CorruptError is a read-time rejection: Msg is the reference's exact text
// and Line the number it names.
type CorruptError struct {
	Name string // the trace's path, or "-" for stdin
	Line int
	Rule Rule
	Msg  string
	Err  error // underlying error, if any
}

func (e *CorruptError) Error() string { return fmt.Sprintf("trace %q: %s", e.Name, e.Msg) }

func (e *CorruptError) Unwrap() error { return e.Err }
