// Package textwrap owns the greedy word wrap upstream's plain-text renderer
// uses, shared by pkg/view and the pongo2 wordwrap filter, and Width, the
// grapheme-cluster cell measure of a line that pads headings and banners
// (an escape sequence takes no cells in either). It must not know views,
// templates or terminals: it measures text in cells and breaks it.
package textwrap
