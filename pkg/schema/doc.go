// Package schema owns JSON Schema for stories ([Compiler], [Schema]):
// compiling a story's schema files, bundling each into the one document
// sent wherever a schema travels, validating submissions
// ([ValidationError]) and the llama.cpp grammar-subset check
// ([GrammarViolation]). It must not read outside the story directory, nor
// follow a $ref outside the story's schemas/ directory ([ErrOutsideRoot]).
//
// The engine is github.com/santhosh-tekuri/jsonschema/v6 (ids, anchors,
// metaschemas, formats, validation for drafts 4 to 2020-12). What is
// kitsoki's own is around it:
//
//   - rooting (files.go, loader.go, refs.go): every file is read through
//     an os.Root, and a $ref leaving schemas/, a network URL or a
//     non-standard $schema is refused before anything is read (seed 000 §5).
//   - bundling (bundle.go): [Schema].Bundled inlines every file the
//     library loaded under $defs.
//   - messages (errors.go, leaves.go): a [CompileError] names the file,
//     the JSON pointer and the fix; a failed validation lists the
//     library's leaf messages in a stable order.
//   - the grammar-subset check (grammar.go).
package schema
