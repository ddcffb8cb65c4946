// Package phases owns phase expansion: it turns a story's phase_templates:,
// phases: and checkpoint_intents: into ordinary states, as upstream's
// expandPhases does, so the run-time never sees a phase. It must not touch
// the loader, the fold or the engine: it only edits the story it is given,
// through pkg/story's exported fields.
package phases
