package cmd

// strictUsage is the --strict flag of kitsoki run and kitsoki test: the
// engine's opt-in checks (engine.Options.Strict).
const strictUsage = "check what the existing engine lets through: slot values of the wrong type: or refused by their validator:, a set: coerced to a key's declared type kept as coerced, increments of non-integers (kitsoki validate warns where a story relies on the difference)"
