// Package scriptiface owns a Starlark script's interface file, its sidecar
// <script>.yaml: parsing it ([Parse]) and checking values against its
// typed inputs and outputs ([Sidecar.CheckInputs], [Sidecar.CheckOutputs],
// [TypeOK]), with upstream's texts. It must not read files or run scripts:
// host.starlark.run and the linter hand it the bytes and the values.
package scriptiface
