package childproc

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// BenchmarkFrameReaderBigLine reads one answer line of 16 to 63 MiB
// through a pipe and the frame reader, as a child's stdout is read. B/op
// is the figure to watch: growing one buffer by append took some five
// times the line.
func BenchmarkFrameReaderBigLine(b *testing.B) {
	for _, size := range []int{16 << 20, 34 << 20, 63 << 20} {
		line := append(bytes.Repeat([]byte("big answer "), size/11), '\n')
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				r, w, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					w.Write(line)
					w.Close()
				}()
				fr := frameReader{br: bufio.NewReaderSize(r, 64<<10), max: MaxFrame}
				got, err := fr.next()
				r.Close()
				if err != nil || len(got) != len(line)-1 {
					b.Fatalf("%d bytes, %v", len(got), err)
				}
			}
		})
	}
}

func sizeName(n int) string {
	return string(rune('0'+n>>20/10)) + string(rune('0'+n>>20%10)) + "MiB"
}

// A long line costs two copies of itself (its pieces, then the line),
// not the five that growing one slice by append cost.
func TestFrameReaderLongLineAllocates(t *testing.T) {
	line := append(bytes.Repeat([]byte("long line "), 8<<20/10), '\n')
	fr := frameReader{br: bufio.NewReaderSize(bytes.NewReader(line), 64<<10), max: MaxFrame}
	var got []byte
	var err error
	spent := allocs.During(func() { got, err = fr.next() })
	if err != nil || !bytes.Equal(got, line[:len(line)-1]) {
		t.Fatalf("%d bytes, %v", len(got), err)
	}
	t.Logf("%d-byte line: allocated %d", len(line), spent)
	if spent > uint64(len(line))*5/2 {
		t.Errorf("reading a %d-byte line allocated %d bytes, over 2.5 times the line", len(line), spent)
	}
}

// BenchmarkCostlyAnswer checks answer lines of 63 MiB before they are
// decoded: one of empty arrays (refused; json.Unmarshal into any took
// 2.7 GB of it) and one of text (passed on, Bound alone).
func BenchmarkCostlyAnswer(b *testing.B) {
	for name, line := range map[string][]byte{
		"empty arrays": []byte("[" + strings.Repeat("[],", 63<<20/3) + "[]]"),
		"text":         []byte(`{"a":"` + strings.Repeat("x", 63<<20) + `"}`),
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if refused := tooCostly(line, 0) != ""; refused != (name == "empty arrays") {
					b.Fatalf("refused %v", refused)
				}
			}
		})
	}
}
