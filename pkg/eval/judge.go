package eval

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// judgeSchema is what the judge agent must answer.
const judgeSchema = `{
  "type": "object",
  "required": ["verdict"],
  "properties": {
    "verdict": {"type": "string", "enum": ["pass", "fail"]},
    "reason": {"type": "string"}
  }
}`

// judgePrompt is the default judge instruction (comparator.prompt replaces
// it).
const judgePrompt = `You are grading an agent's answer for the eval example "{{ args.example }}".
Expected answer (the fields that matter):
{{ args.expect_json }}
Actual answer:
{{ args.actual_json }}
Reply with JSON {"verdict": "pass" | "fail", "reason": "<one sentence>"}: pass when the actual answer agrees with the expected one in meaning.`

// judgeRunner asks the comparator's agent for a verdict through the same
// dispatch pipeline as the candidates.
type judgeRunner struct {
	reg    *agent.Registry
	alias  string
	schema *schema.Schema
	tmpl   *expr.Pongo
}

func newJudge(mx *compose.Matrix, st *story.Story, c Comparator, cassette bool) (*judgeRunner, error) {
	alias := cmp.Or(c.Agent, story.DefaultAgentAlias)
	if a := resolveProfile(st, alias); a != "" {
		alias = a
	}
	sc, err := schema.CompileBytes("judge_verdict", []byte(judgeSchema))
	if err != nil {
		return nil, err
	}
	var tmpl *expr.Pongo
	loader := expr.NewPongoLoader(st.Dir, filepath.Join(st.Dir, "prompts"))
	loader.AddNamespace("@story", st.Dir)
	loader.Confine(st.FileRoot().Dir()) // comparator.prompt: any file of the project
	if c.Prompt != "" {
		p := c.Prompt
		if !filepath.IsAbs(p) {
			p = filepath.Join(st.Dir, p)
		}
		// Through the project root: a prompt outside it, or through a
		// symlink leading out, is refused the same whether what it names
		// exists or not.
		p = filepath.Clean(p)
		if _, err := st.FileRoot().Stat(p); errors.Is(err, safefile.ErrOutsideRoot) {
			return nil, errors.New(story.OutsideRootMessage(st.FileRoot(), "comparator.prompt", c.Prompt, errOutsideFor(st.FileRoot(), p)))
		} else if err != nil {
			return nil, fmt.Errorf("comparator.prompt %q: %s (paths are relative to the story directory)", c.Prompt, safefile.Reason(err))
		}
		tmpl, err = loader.CompileFile(p)
	} else {
		tmpl, err = loader.Compile(judgePrompt)
	}
	if err != nil {
		return nil, fmt.Errorf("judge prompt: %v", err)
	}
	var decl *story.AgentPlugin
	if !cassette {
		if decl = st.AgentPlugins[alias]; decl == nil {
			return nil, fmt.Errorf("comparator.agent %q is not an agent_plugins alias of the app", alias)
		}
	}
	reg, err := mx.Registry(alias, decl)
	if err != nil {
		return nil, fmt.Errorf("judge %s: %w", alias, err)
	}
	return &judgeRunner{reg: reg, alias: alias, schema: sc, tmpl: tmpl}, nil
}

func (j *judgeRunner) close() { j.reg.Close() }

// judge returns the verdict. A judge that fails to answer fails the
// example (the reason says why); only a context end is an error.
func (j *judgeRunner) judge(ctx context.Context, ex Example, actual any) (bool, string, error) {
	ej, _ := json.Marshal(ex.Expect)
	aj, _ := json.Marshal(actual)
	args := map[string]any{"example": ex.Name, "args": ex.Args, "expect": ex.Expect, "actual": actual, "expect_json": string(ej), "actual_json": string(aj)}
	prompt, err := j.tmpl.Render(expr.Env{"args": args})
	if err != nil {
		return false, "judge prompt: " + err.Error(), nil
	}
	res, err := j.reg.Dispatch(ctx, agent.Call{
		Alias: j.alias, Verb: "decide", SessionID: "eval:judge", StatePath: "judge", Prompt: prompt, Schema: j.schema,
		With: map[string]any{"example": ex.Name, "expect": ex.Expect, "actual": actual},
	})
	if ctx.Err() != nil {
		return false, "", context.Cause(ctx)
	}
	if err != nil {
		if agent.KindOf(err) == "" {
			return false, "", err
		}
		return false, "judge: " + j.reg.Redact(err.Error()), nil
	}
	m, _ := res.Value.(map[string]any)
	verdict, _ := m["verdict"].(string)
	reason, _ := m["reason"].(string)
	if verdict == "pass" {
		return true, "", nil
	}
	if reason == "" {
		reason = "judge verdict: fail"
	} else {
		reason = "judge: " + reason
	}
	return false, reason, nil
}
