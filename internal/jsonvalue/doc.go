// Package jsonvalue owns the walkers over decoded JSON values (any built of
// map[string]any, []any and scalars): turning [encoding/json.Number] into Go
// numbers ([Ints], [Int64s]), deep copies ([Copy], [CopyNilAsEmpty],
// [CopyAsJSON], [Normalize] for YAML-decoded values) and the JSON round trip
// ([RoundTrip]). It must not touch decoding, schemas or I/O: callers decode
// (with UseNumber where they need exact integers) and pick the number form
// their consumers expect.
package jsonvalue
