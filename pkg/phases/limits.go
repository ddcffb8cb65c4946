package phases

import "fmt"

// Bounds on what expanding phases copies: every graph entry copies the
// whole template, so a small file could multiply into gigabytes.
const (
	// MaxCopiedValues is the most values the expansion copies, over all entries.
	MaxCopiedValues = 2_000_000
	// MaxSubstitutedBytes is the most bytes the substitution writes, over all entries.
	MaxSubstitutedBytes = 64 << 20
)

// allowance is what the copies of one expansion may still take.
type allowance struct {
	values, bytes int
	over          bool
}

// take spends values and bytes, false once spent; a nil allowance is unbounded.
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

// ExpansionTooLarge is the error for an expansion past the bounds.
func ExpansionTooLarge(entries int) string {
	return fmt.Sprintf("phases: the %d graph entries expand to more than %d copied values or %d bytes of substituted text (each entry copies the whole template); use fewer entries, a smaller template, or shorter parameters", entries, MaxCopiedValues, MaxSubstitutedBytes)
}
