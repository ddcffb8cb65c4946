package eval

// ShownCall is eval show --json's call, with the dataset's hashes where
// upstream prints them (docs/compat/trace-eval.md C.10).
type ShownCall struct {
	Call        string `json:"call"`
	Handler     string `json:"handler"`
	Agent       string `json:"agent,omitempty"`
	Plugin      string `json:"plugin,omitempty"`
	PromptPath  string `json:"prompt_path,omitempty"`
	SchemaPath  string `json:"schema_path,omitempty"`
	SchemaName  string `json:"schema_name,omitempty"`
	EffectIndex int    `json:"effect_index"`
	StatePath   string `json:"state_path"`
	Hashes
	SelectionRef string `json:"selection_ref,omitempty"`
}

// ShownCall is v's call site with its hashes as eval show --json prints
// it, or nil when none was found.
func (v *Validation) ShownCall() *ShownCall {
	cs := v.CallSite
	if cs == nil {
		return nil
	}
	return &ShownCall{Call: cs.Call, Handler: cs.Handler, Agent: cs.Agent, Plugin: cs.Plugin, PromptPath: cs.PromptPath,
		SchemaPath: cs.SchemaPath, SchemaName: cs.SchemaName, EffectIndex: cs.EffectIndex, StatePath: cs.StatePath,
		Hashes: v.Hashes, SelectionRef: cs.SelectionRef}
}
