// Package jsoncost owns estimating, before a JSON document is decoded, the
// memory that decoding it into a Go type would allocate, from
// encoding/json's token stream, which holds one token at a time. A report
// of many empty elements ({} is two bytes; the struct it decodes to may
// take two hundred) decodes to a hundred times its size: callers refuse a
// document that [Over] or [OverFor] says passes its limit before decoding
// it, and [Values] counts a document's values. It must not read files or
// word the refusal: its callers name the file and the fix.
package jsoncost
