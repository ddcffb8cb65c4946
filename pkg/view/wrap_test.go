package view

import "testing"

func TestTextWidth(t *testing.T) {
	if textWidth("abc") != 3 || textWidth("日本") != 4 || textWidth("a\nabcd") != 4 || textWidth("é") != 1 || textWidth("e\u0301") != 1 || textWidth("\u2061x\u2063") != 1 || textWidth("\U0001F44D\U0001F3FD\na") != 2 {
		t.Error("textWidth")
	}
}
