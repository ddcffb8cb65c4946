// Package textwrap owns the greedy word wrap upstream's plain-text renderer
// uses, shared by pkg/view (prose, list hints, kv values) and the pongo2
// wordwrap filter (pkg/story/expr), which upstream runs through the same
// wrapper. It must not know views, templates or terminals: it measures
// text in cells and breaks it, nothing else.
package textwrap
