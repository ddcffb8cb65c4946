package phases

import "fmt"

// Bounds on what expanding a story's phases copies. Every graph entry
// copies the whole template, so a template made large by YAML aliases, or
// a long parameter substituted in many places, times many entries can
// multiply a small file into gigabytes; the expansion stops and is an
// error past either. A real story stays far under both.
const (
	// MaxCopiedValues is the most values (states, effects, strings, list
	// and map entries) the expansion copies, over all graph entries.
	MaxCopiedValues = 2_000_000
	// MaxSubstitutedBytes is the most bytes of strings the substitution
	// of {{ tpl.<p> }} and {{ phase.next.<arc> }} writes, over all entries.
	MaxSubstitutedBytes = 64 << 20
)

// allowance is what the copies of one expansion may still take.
type allowance struct {
	values, bytes int
	over          bool
}

func newAllowance() *allowance {
	return &allowance{values: MaxCopiedValues, bytes: MaxSubstitutedBytes}
}

// take spends values and bytes; false, from then on, once either is
// spent. A nil allowance (a plain copy of the story's own states) has no
// bound: it copies what the file holds.
func (a *allowance) take(values, bytes int) bool {
	if a == nil {
		return true
	}
	if a.over {
		return false
	}
	a.values -= values
	a.bytes -= bytes
	a.over = a.values < 0 || a.bytes < 0
	return !a.over
}

func (a *allowance) spent() bool { return a != nil && a.over }

// ExpansionTooLarge is the error for an expansion of entries graph
// entries past the bounds.
func ExpansionTooLarge(entries int) string {
	return fmt.Sprintf("phases: the %d graph entries expand to more than %d copied values or %d bytes of substituted text (each entry copies the whole template); use fewer entries, a smaller template, or shorter parameters", entries, MaxCopiedValues, MaxSubstitutedBytes)
}
