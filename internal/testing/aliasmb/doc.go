// Package aliasmb owns the YAML that the alias-text limit tests name: an
// anchor whose every alias repeats a megabyte of text, written in some
// 9 KB (a list of aliases of a small scalar; aliases count as expanded),
// so a test reaches yamlnode.MaxAliasText, the product's own limit,
// without a parser reading megabytes of file. It must not be imported
// outside tests.
package aliasmb
