package cmd

import (
	"io"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
)

// printableWriter escapes human output as termsafe.Printable does. Each
// Write must be whole lines or one whole Fprintf, so no rune is split.
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, termsafe.Printable(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// jsonWriter writes JSON output through termsafe.JSON, holding a rune or
// a CI marker's start split across Writes until the next one; Flush writes
// what is held.
type jsonWriter struct {
	w    io.Writer
	tail []byte
}

func (j *jsonWriter) Write(b []byte) (int, error) {
	buf := append(j.tail, b...)
	k := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				k = i
			}
			break
		}
	}
	k -= markerStart(buf[:k])
	j.tail = append([]byte(nil), buf[k:]...)
	if _, err := j.w.Write(termsafe.JSON(buf[:k])); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush writes the bytes of an unfinished rune held from the last Write.
func (j *jsonWriter) Flush() error {
	if len(j.tail) == 0 {
		return nil
	}
	_, err := j.w.Write(j.tail)
	j.tail = nil
	return err
}

// markerStart is the length of the longest end of b that begins a CI
// marker ("##[", "##vso[", "##teamcity[") without completing it.
func markerStart(b []byte) int {
	for n := min(len(b), len("##teamcity")); n > 0; n-- {
		end := string(b[len(b)-n:])
		if strings.HasPrefix("##[", end) || strings.HasPrefix("##vso[", end) || strings.HasPrefix("##teamcity[", end) {
			return n
		}
	}
	return 0
}

// printableMessage is a message for the terminal: past diag.MaxMessage
// bytes clipped as a finding's message is (an engine error or a note may
// quote a world value or a state name of any size), then escaped as
// termsafe.Printable does.
func printableMessage(s string) string {
	return termsafe.Printable(diag.ClipMessage(s))
}

// lineMessage is printableMessage on one line, escaped as termsafe.Line
// does: a value of a trace or a report printed in a row.
func lineMessage(s string) string {
	return termsafe.Line(diag.ClipMessage(s))
}
