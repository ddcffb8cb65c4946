//go:build !unix

package safefile

import "testing"

func makeFIFO(*testing.T, string) string { return "" }

func makeSocket(*testing.T, string) string { return "" }
