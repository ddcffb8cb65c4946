// Package schema owns JSON Schema for stories ([Compiler], [Schema]):
// compiling the files under a story's schemas/, validating submissions
// ([ValidationError]) and the llama.cpp grammar-subset check
// ([GrammarViolation]). It must not read outside the story's schemas/
// directory ([ErrOutsideRoot]).
//
// In full, it owns JSON Schema for stories: compiling the schema files a
// story keeps under its schemas/ directory, validating agent submissions
// against them, and the llama.cpp grammar-subset check applied to decide
// schemas of grammar: true local_llm plugins.
//
// Loading is rooted: a Compiler reads only files inside <storyDir>/schemas,
// through an os.Root, so neither a path nor a $ref (relative, absolute,
// file://, http(s)://) nor a symlink can make it read anything else. Refs
// that leave the root fail at compile time, naming the file, the JSON
// pointer of the $ref and the ref as written, and match ErrOutsideRoot
// (errors.Is). Nothing is fetched from the
// network; the standard drafts (04, 06, 07, 2019-09, 2020-12) are built in.
//
// The JSON Schema engine is the package's own (nodes.go compiles, resources.go
// resolves ids, anchors and refs, eval.go
// validates, metacheck.go is each draft's metaschema as code, format.go the
// formats drafts 4-7 assert, number.go exact decimals); tests keep
// santhosh-tekuri/jsonschema as a differential oracle only, so the shipped
// binary does not pay its start-up cost.
//
// Every compiled schema also has a bundled form (bundle.go): the one
// self-contained document kitsoki sends wherever a schema travels, with the
// files it references inlined under $defs and every $ref rewritten to a
// pointer into it, accepting exactly what the source files accept.
//
// Validation is the hot path of every agent call: a Schema is compiled once
// (a Compiler caches by path) and Validate only walks the compiled form.
// Errors are values (CompileError, ValidationError, GrammarViolation) with
// the pointer and keyword that failed, for diagnostics and AskError detail.
//
// The package knows nothing about stories, agents or traces, never imports
// them, and keeps no global state.
package schema
