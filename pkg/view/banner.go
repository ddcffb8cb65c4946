package view

import "strings"

// ErrorBanner appends upstream's error banner to a view after an on_error
// redirect (story-runtime §2.4): when the view does not already contain
// the error message, "\n\n⚠ Action failed: <msg>" is appended; an empty
// view becomes the banner alone. The engine decides when a banner is due.
func ErrorBanner(view, msg string) string {
	if msg != "" && strings.Contains(view, msg) {
		return view
	}
	banner := "⚠ Action failed: " + msg
	if view == "" {
		return banner
	}
	return view + "\n\n" + banner
}

// PrependSay puts a turn's say narration before its view, separated by a
// blank line when both are non-empty (story-runtime §8).
func PrependSay(say, view string) string {
	switch {
	case say == "":
		return view
	case view == "":
		return say
	}
	return say + "\n\n" + view
}
