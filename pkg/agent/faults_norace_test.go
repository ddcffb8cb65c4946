//go:build !race

package agent_test

// bigAnswerBytes is the size of the "50 MB answer" fault test.
const bigAnswerBytes = 50 << 20
