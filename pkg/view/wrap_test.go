package view

import "testing"

func TestTextWidth(t *testing.T) {
	if textWidth("abc") != 3 || textWidth("日本") != 4 || textWidth("a\nabcd") != 4 || textWidth("é") != 1 || textWidth("e\u0301") != 1 || textWidth("\u2061x\u2063") != 1 || textWidth("\U0001F44D\U0001F3FD\na") != 2 {
		t.Error("textWidth")
	}
}

// BenchmarkTextWidth measures a three-line heading block: ASCII, CJK and
// emoji sequences.
func BenchmarkTextWidth(b *testing.B) {
	s := "Quarterly report: all systems nominal, 42 checks\n東京 の 天気 予報 \u2764\ufe0f \U0001F468\u200d\U0001F469\u200d\U0001F467\ne\u0301t\u00e9 \U0001F1EF\U0001F1F5 \U0001F44D\U0001F3FD done"
	b.ReportAllocs()
	for b.Loop() {
		if textWidth(s) == 0 {
			b.Fatal("no width")
		}
	}
}
