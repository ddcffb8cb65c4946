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
// Accepted YAML (anything else declines):
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
//     plain and quoted scalars (flow mapping keys are one-line scalars),
//     with empty values and trailing commas;
//   - later documents, which are checked (they must be in the subset too,
//     since yaml.v3 scans a little past the first) and dropped;
//   - a leading byte-order mark, and "\r\n" line ends.
//
// Parse declines (returns nil, false) on: empty or comment-only input, an
// empty first document, content on a "---" line, directives,
// anchors, aliases, tags, "?" complex keys, a collection used as a key,
// single-pair mappings in flow sequences, flow mapping keys without a
// value, a tab anywhere but in a comment, a block scalar's content or a
// one-line quoted scalar, a carriage return not followed by a line feed, a
// byte-order mark after the first character, line separators (NEL, LS,
// PS), control characters, invalid UTF-8, nesting deeper than maxDepth,
// and any construction it does not recognise (including everything
// yaml.v3 rejects). Declining is always safe: the caller falls back to
// yaml.v3.
//
// The switch: KITSOKI_YAMLFAST=0 (also false, off, no) makes Parse and
// ParseString decline everything ([Off]), so a user who suspects the
// front end can read every file with yaml.v3 alone; story and fixture
// loads give the same result either way (tested both ways).
package yamlfast
