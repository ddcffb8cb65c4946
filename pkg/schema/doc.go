// Package schema owns JSON Schema for stories ([Compiler], [Schema]):
// compiling the files under a story's schemas/, validating submissions
// ([ValidationError]) and the llama.cpp grammar-subset check
// ([GrammarViolation]). It must not read outside the story's schemas/
// directory ([ErrOutsideRoot]).
//
// A Compiler reads through an os.Root on <storyDir>/schemas (files.go; on
// Linux a plain regular file named directly inside it is read through the
// directory's descriptor with O_NOFOLLOW), so no path, $ref (relative,
// absolute, file://, http(s)://) or symlink reaches anything else; a
// [Session] opens the directory once for several compiles and reads each
// file once; a ref that leaves the root fails at compile time naming the file, the
// JSON pointer of the $ref and the ref as written. Nothing is fetched: the
// standard metaschemas are built in. [Schema].Bundled (bundle.go) is the one
// self-contained document sent wherever a schema travels: referenced files
// inlined under $defs, every $ref rewritten to point into it.
//
// The JSON Schema engine is the package's own (nodes.go compiles,
// resources.go resolves ids, anchors and refs, eval.go validates,
// metacheck.go with metakeywords.go is each draft's metaschema as code,
// format.go the formats drafts 4-7 assert, number.go exact decimals); tests
// keep santhosh-tekuri/jsonschema as a differential oracle only, so the
// binary does not pay its start-up cost. Differences are in docs/compat/schema.md.
//
// Validation is the hot path of every agent call: a Compiler caches by path
// and [Schema.Validate] only walks the compiled form. The package knows
// nothing about stories, agents or traces and keeps no global state.
package schema
