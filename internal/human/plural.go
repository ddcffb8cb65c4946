package human

// Plural is one when n is 1, else many: the word after a count.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
