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

// Options bound one expansion; the zero Options are the production bounds,
// the ones run, test and validate expand within. Tests set small ones to
// prove a refusal without copying millions of values.
type Options struct {
	// MaxCopiedValues replaces MaxCopiedValues when above 0.
	MaxCopiedValues int
	// MaxSubstitutedBytes replaces MaxSubstitutedBytes when above 0.
	MaxSubstitutedBytes int
}

// Bounds are the copied values and substituted bytes o expands within.
func (o Options) Bounds() (values, bytes int) {
	values, bytes = MaxCopiedValues, MaxSubstitutedBytes
	if o.MaxCopiedValues > 0 {
		values = o.MaxCopiedValues
	}
	if o.MaxSubstitutedBytes > 0 {
		bytes = o.MaxSubstitutedBytes
	}
	return values, bytes
}

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

// ExpansionTooLarge is the error for an expansion past the production
// bounds.
func ExpansionTooLarge(entries int) string {
	return tooLarge(entries, MaxCopiedValues, MaxSubstitutedBytes)
}

// tooLarge is the error for an expansion past the given bounds.
func tooLarge(entries, values, bytes int) string {
	return fmt.Sprintf("phases: the %d graph entries expand to more than %d copied values or %d bytes of substituted text (each entry copies the whole template); use fewer entries, a smaller template, or shorter parameters", entries, values, bytes)
}
