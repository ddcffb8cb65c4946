package engine

import (
	"sync"
	"time"

	"kitsoki/pkg/fold"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// The engine executes its own compiled form of a story, built once before the
// run starts (compile.go). Everything that can fail at compile time (guards,
// templates, target syntax, refused constructs, unknown handlers) fails there,
// before the first state is entered, so a run is never half-executed.

// Pos is a position in a story file, 1-based; zero when unknown.
type Pos = story.Pos

// Machine is the executable form of a story.
type Machine struct {
	AppID  string
	Dir    string // story base directory: prompt and schema paths are relative to it
	Entry  string // manifest path relative to Dir (session.story)
	Root   string // path of the root state (before descending initial)
	World  []WorldVar
	Exits  map[string]bool
	States map[string]*State // by dotted absolute path
	Order  []*State          // declaration order, top-level first (for determinism)
	// SlotTypes maps intent -> slot -> declared type (global and
	// state-local intents), for typing --slot values.
	SlotTypes map[string]map[string]string
	// Intents holds the declared slots of the global intents: (intent ->
	// slot -> definition); State.Intents the state-local ones.
	Intents map[string]map[string]*SlotDef
	// Priority holds the global intents' priority: (0 when unset).
	Priority map[string]int
	// PersonaModels maps an agents: persona to its model (trace only).
	PersonaModels map[string]string
	// Folded is the import fold's side table (nil for a story without
	// imports): per-state story directories and intent aliases.
	Folded *fold.Folded
	// Decider is the app-level engine decider (decider: block), nil = none.
	Decider *AppDecider
	// Warnings are findings that do not stop the run (on_exit, ...).
	Warnings []Problem
	// Hidden names the intents declared hidden: true.
	Hidden map[string]bool
	// exitPos is where each of the story's exits: is declared.
	exitPos map[string]Pos
	// exitStates are the exits an arm's or a timeout's written
	// "@exit:NAME" target names: upstream's loader makes each a state
	// "__exit__NAME", which an on_error can then name (conformance
	// on-error-exit-state).
	exitStates map[string]bool

	pongo    *expr.PongoLoader
	promptMu sync.Mutex
	render   *PromptRenderer
	// renders holds one prompt renderer per imported story directory.
	renders map[string]*PromptRenderer
}

// AppDecider is the top-level decider: block (story-runtime §7).
type AppDecider struct {
	Agent, Schema, Prompt string
	Threshold             float64
}

// WorldVar is one declared world variable with its default.
type WorldVar struct {
	Name    string
	Type    string // string, int, bool, float/number, object/map, list/array ...
	Default any
}

// State is one node of the state tree.
type State struct {
	Path        string // dotted absolute path, e.g. "pipeline.fix"
	Name        string // last path segment
	Parent      *State
	Children    []*State
	Initial     *text // compound only; may be a pongo2 template
	OnEnter     []*Effect
	On          map[string][]*Transition
	Terminal    bool
	Description string                         // templates' state.description (story-format §6.3)
	Timeout     *Timeout                       // timeout: — fires when the run rests here
	Intents     map[string]map[string]*SlotDef // state-local intents: slots
	Priority    map[string]int                 // state-local intents: priority (0 when unset)
	Parallel    bool                           // entering it enters every region (story-runtime §3)
	Aliases     map[string]string              // an imported child's bare intent → folded name (§1.4)
	Decider     string                         // the state's decider: ("human", "llm" or "")
	Pos         Pos
}

// Timeout is a state's timeout: {after, target}. When a run rests (no
// input left) inside the state, the target is entered after the duration.
type Timeout struct {
	After  *text // Go duration or Nd; may be a pongo2 template
	Target *text // a target form of §4.3, relative to the declaring state
	Pos    Pos
}

// Transition is one arm of an `on:` handler list.
type Transition struct {
	Target  *text // nil or "" or "." means stay
	When    *guard
	Default bool
	Hint    string // guard_hint, reported when every guard fails
	Effects []*Effect
	View    *story.View // its own view, replacing the state's for the turn (§8)
	Emits   []string    // the transition-level emit: list (parallel regions)
	Pos     Pos
	exits   []exitMark // the imports: exit mappings its target went through
}

// exitMark is an imports: exit mapping a folded target went through.
type exitMark struct {
	name string
	pos  Pos
}

// effect kinds: only the first of set > increment > say > invoke applies.
const (
	kindNone = iota
	kindSet
	kindIncrement
	kindSay
	kindInvoke
)

// Effect is one effect entry.
type Effect struct {
	Kind      int
	When      *guard
	Set       []setKV
	Increment []setKV
	Say       *text
	Invoke    string
	ID        string
	With      any // raw YAML-decoded tree; strings are {{ }} templates
	Bind      []bindKV
	OnError   string
	Once      bool
	Emit      *valueTmpl    // emit_intent
	Slots     []setKV       // emit_intent's slots:
	Agent     string        // agent_plugins alias, "" = agent.claude
	Timeout   time.Duration // the invoke's timeout: (0 = the run's --call-timeout)
	agentTmpl *valueTmpl    // a templated agent: (agent_alias.go)
	Event     string        // the effect's emit: for the other parallel regions
	// Background submits the invoke as a background job; OnComplete runs
	// when it ends (story-runtime §5).
	Background bool
	OnComplete []*Effect
	// completeNF is a NaN or ±Inf literal in OnComplete, which fails the
	// submission (completeNonFinite); hasCompleteNF tells whether there is one
	completeNF    float64
	hasCompleteNF bool
	Target        *text     // an on_complete entry's target: (nil elsewhere)
	Inline        []*Effect // its effects: list
	Pos           Pos
	// where on_error: and an on_complete entry's target: are written (observer.go)
	onErrorPos, targetPos Pos
	exits                 []exitMark      // an on_complete entry's, as Transition's
	owner                 *State          // the state whose on_enter or on: holds the effect
	render                *PromptRenderer // the declaring story's renderer; nil = the machine's
}

// setKV is one key of a set: effect, of an increment: effect (Value is
// then the delta) or of an emit_intent's slots:.
type setKV struct {
	Key   string
	Value *valueTmpl
}

type bindKV struct {
	Key  string
	Path string     // dotted result path; "" when Tmpl is set
	Tmpl *valueTmpl // {{ }} template with result and world roots
}
