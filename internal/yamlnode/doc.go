// Package yamlnode owns kitsoki's positioned walk over yaml.v3 nodes: the
// one [Pos] (file, line, column), the one did-you-mean ([Suggest]), the
// names of places in messages ([Place]: `state "a".on_enter[2]`), and the
// [Walker] every story file is read through (node budget, recursive
// aliases, type errors, duplicate and unknown keys). It must not know the
// story format or any other file format: callers name the keys they know,
// the rules they report under and the model they build.
//
// The node helpers ([Deref], [IsNull], [KindName], [Describe],
// [ScalarValue], [Get], [Keys]) and the repeated-key finder ([Seen]) are
// shared by the decoders whose messages differ from the Walker's (flow
// fixtures, eval datasets, plugin profiles, views), so each keeps its
// wording while the walk itself is written once.
//
// Layout: pos.go ([Pos]), suggest.go ([Suggest]), node.go (node helpers),
// place.go ([Place]), seen.go ([Seen]), walk.go ([Walker]: budget, depth,
// mappings and lists), scalar.go (the Walker's typed scalars and raw
// values).
package yamlnode
