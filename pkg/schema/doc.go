// Package schema owns JSON Schema for stories ([Compiler], [Schema]):
// compiling a story's schema files, bundling each into the one document
// sent wherever a schema travels, validating submissions
// ([ValidationError]) and the llama.cpp grammar-subset check
// ([GrammarViolation]). It must not read outside the story directory, nor
// follow a $ref outside the story's schemas/ directory ([ErrOutsideRoot]).
//
// The engine is github.com/santhosh-tekuri/jsonschema/v6: it resolves ids
// and anchors, checks each file against its draft's metaschema, carries
// the standard metaschemas and formats, and validates (drafts 4, 6, 7,
// 2019-09 and 2020-12; 2020-12 for a file without $schema). What is
// kitsoki's own is around it:
//
//   - rooting (files.go, loader.go): a schema file is read through an
//     os.Root on the story directory, every file a $ref names through an
//     os.Root on schemas/, by the library's URLLoader; refs.go refuses a
//     $ref that leaves schemas/ or names a network URL, and a $schema
//     that is no standard draft, before anything is read. A relative $ref
//     resolves against the file holding it under schemas/, against
//     schemas/ itself in a file outside it (seed 000 §5). A [Session]
//     opens the directories once for several compiles and reads each file
//     once.
//   - bundling (bundle.go): [Schema].Bundled inlines every file the
//     library loaded under $defs, with the references rewritten to where
//     their targets went: JSON pointers, or resources named by their path
//     when dynamic references need resource boundaries kept.
//   - messages (errors.go, leaves.go): a schema that does not compile is
//     a [CompileError] naming the file, the JSON pointer (the line and
//     column for bad JSON) and the fix; a failed validation lists the
//     library's leaf messages in an order that does not depend on Go's
//     map order.
//   - the grammar-subset check (grammar.go).
//
// A Compiler caches compiled schemas by path, and [Schema.Validate] only
// runs the library's compiled form. The package knows nothing about
// stories, agents or traces and keeps no global state.
package schema
