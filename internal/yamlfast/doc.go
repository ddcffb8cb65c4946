// Package yamlfast owns a fast YAML front end: [ParseWithin] builds the same
// *yaml.Node tree (go.yaml.in/yaml/v3 nodes) that yaml.v3's Decoder would,
// for the YAML that stories and flow fixtures use, and declines everything
// else. It must not touch story or fixture semantics, report errors, or
// decide anything a caller would see: when it declines, the caller decodes
// with yaml.v3, whose behaviour and messages stay the reference.
//
// The contract: when ParseWithin declines nothing, the tree is deep-equal to the
// DocumentNode yaml.v3's Decoder.Decode produces for the same bytes, except
// that comments are left empty. Lines and columns are 1-based; columns
// count characters, as libyaml does.
//
// Accepted: block mappings with one-line scalar keys, block sequences and
// compact nested collections; plain, quoted (every escape) and block
// scalars, also over several lines; nested flow collections of scalars;
// later documents (checked, then dropped); comments, a leading "---", a
// leading BOM and "\r\n". Anything else declines: empty input, directives,
// anchors, aliases, tags, complex keys, misplaced tabs, control characters,
// nesting deeper than maxDepth, and all yaml.v3 rejects.
//
// KITSOKI_YAMLFAST=0 (also false, off, no) makes
// ParseWithin decline everything ([Off]); loads give the same result either way.
package yamlfast
