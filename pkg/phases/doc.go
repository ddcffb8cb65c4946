// Package phases owns phase expansion: it turns a story's phase_templates:,
// phases: and checkpoint_intents: into ordinary states, the way upstream's
// load stage 3 (expandPhases) does, so the run-time never sees a phase.
// It must not touch the loader (pkg/story), the fold (pkg/fold) or the
// engine: it only edits the story it is given (the fold's private copy),
// through pkg/story's exported fields.
package phases
