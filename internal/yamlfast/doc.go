// Package yamlfast owns a fast YAML front end: Parse builds the same
// *yaml.Node tree (go.yaml.in/yaml/v3 nodes) that yaml.v3's Decoder would,
// for the YAML that stories and flow fixtures use, and declines everything
// else. It must not touch story or fixture semantics, report errors, or
// decide anything a caller would see: when it declines, the caller decodes
// with yaml.v3, whose behaviour and messages stay the reference.
//
// The contract: when Parse returns ok, the tree is deep-equal to the
// DocumentNode yaml.v3's Decoder.Decode produces for the same bytes (Kind,
// Style, Tag, Value, Anchor, Alias, Content, Line, Column of every node),
// except that comments (HeadComment, LineComment, FootComment) are left
// empty. Lines and columns are 1-based; columns count characters, as
// libyaml does.
//
// Accepted YAML (one document; anything else declines):
//   - an optional leading "---" line (with an optional comment), comments
//     and blank lines anywhere outside scalars;
//   - block mappings whose keys are one-line plain or quoted scalars
//     (shorter than 1000 bytes), block sequences, compact nested
//     collections ("- key: v", "- - v") and sequences under a key indented
//     or not;
//   - plain scalars, also folded over several lines; single- and
//     double-quoted scalars with every yaml.v3 escape, also over several
//     lines; literal and folded block scalars with chomping and
//     indentation indicators;
//   - flow sequences and mappings, nested, also over several lines, of
//     plain and quoted scalars (flow mapping keys are one-line scalars).
//
// Parse declines (returns nil, false) on: empty or comment-only input, a
// second document or any "---"/"..." line after the first, directives,
// anchors, aliases, tags, "?" complex keys, a collection used as a key,
// single-pair mappings in flow sequences, empty flow entries or values,
// trailing flow commas, tabs, carriage returns, a byte-order mark, line
// separators (NEL, LS, PS), control characters, invalid UTF-8, nesting
// deeper than maxDepth, a comment not preceded by a space, and any
// construction it does not recognise (including everything yaml.v3
// rejects). Declining is always safe: the caller falls back to yaml.v3.
package yamlfast
