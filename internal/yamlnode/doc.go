// Package yamlnode owns kitsoki's positioned walk over yaml.v3 nodes: the
// one [Pos] (file, line, column), the one did-you-mean ([Suggest]), the
// names of places in messages ([Place]: `state "a".on_enter[2]`), and the
// [Walker] every story file is read through (node budget, recursive
// aliases, type errors, duplicate and unknown keys; with Typed, a merged
// list where a typed decoder refuses it), and [ValueAt], which
// maps a place inside a scalar's value back to the file through its style.
// [NewFileWalker] walks a file only kitsoki reads (a plugin manifest, a pin
// file) with yaml.v3's readings ([Decoded], [Walker.DecodedStrList]) and
// hands its findings back as one error ([Walker.Err]); a reader that
// decodes with yaml.v3 first places what it refused with
// [Walker.Undecodable] (a tag its text does not fit, a bad merge, a key
// given twice), and words an error the walk did not place with [ErrText].
// [RepeatedKey] finds a key given twice as upstream's parser (written
// twice, anywhere) and decoder (through a merged list or an alias key,
// where a decoder into the caller's type reads) refuse it. [TooDeep] finds
// a value nested past [MaxDepth] (aliases expanded) in a document a reader
// decodes without a Walker. [FlowKeyTab] finds the tab before a flow
// mapping's key that upstream's parser refuses a file for, and
// [PrintedText]/[TextAsPrinted] read a scalar as the text upstream's
// decoder makes of it for a text field (1.0 is "1", True "true").
// Every YAML file a repository or user supplies is parsed within
// [MaxTreeNodes] nodes a document through [Decode], [Unmarshal],
// [UnmarshalPlain] or, before a yaml.v3 Decoder reads a stream document
// by document, [StreamWithin].
// It must not know the story format or any other file format: callers name
// the keys they know, the rules they report under and the model they build.
package yamlnode
