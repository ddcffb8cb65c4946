// Package jsonvalue owns the walkers over decoded JSON values (any built of
// map[string]any, []any and scalars): turning [encoding/json.Number] into Go
// numbers ([Ints], [Int64s]), deep copies ([CopyMap], [CopyNilAsEmpty],
// [CopyAsJSON], [Normalize] for YAML-decoded values) and the JSON round
// trip ([RoundTrip]), the one strict decode of exactly one JSON value
// ([OneExact], every digit kept) and its refusal of a number past
// a float ([NumberOutOfRange]), a decode error worded in the file's own
// terms ([Reason]: line, column, member, the JSON expected), masking a
// map through its encoding ([MaskEncoded]), and the length of a value's
// encoding bounded without encoding it ([EncodedBound], [StringBound]),
// the names of JSON types in every message ([Kind], [WithArticle]:
// string, number, true/false, object, list, null), the encoding a
// person reads, HTML characters as written ([MarshalNoHTML]), and the
// first string not in Unicode NFC ([FirstNonNFC]). It must not touch
// schemas or I/O: callers pick the number form their consumers expect.
package jsonvalue
