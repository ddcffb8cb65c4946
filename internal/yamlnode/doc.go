// Package yamlnode owns kitsoki's positioned walk over yaml.v3 nodes: the
// one [Pos] (file, line, column), the one did-you-mean ([Suggest]), the
// names of places in messages ([Place]: `state "a".on_enter[2]`), and the
// [Walker] every story file is read through (node budget, recursive
// aliases, type errors, duplicate and unknown keys). It must not know the
// story format or any other file format: callers name the keys they know,
// the rules they report under and the model they build.
//
// [Fields] is a mapping's table of known keys: each entry names a key and
// where its value goes, so the list a did-you-mean chooses from and the
// switch over the keys are one thing ([Walker.Fields], [Fields.Find]).
//
// [ScalarValue] is the one reading of a scalar's value; a plain number
// written without a decimal point that yaml.v3 reads as a float is text,
// as the existing engine reads it ([PointlessFloat]; before a yaml.v3
// Decode, [TextPointlessFloats]).
//
// [Reporter] collects the diagnostics of one story load or lint check
// under the rules their callers name.
//
// The node helpers ([Deref], [IsNull], [KindName], [Get], [Keys],
// [ErrLine]) and the repeated-key finder ([Seen]) serve the decoders whose
// messages differ from the Walker's (flow fixtures, eval datasets, plugin
// profiles, views). Layout: pos.go, suggest.go, node.go, place.go, seen.go,
// walk.go (the Walker: budget, depth, mappings, lists), reporter.go,
// fields.go (key tables) and scalar.go (its typed scalars and raw values).
package yamlnode
