package fold

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"kitsoki/pkg/story"
)

// dump renders a folded story compactly for assertions and debugging:
// one line per state, arm and effect.
func dump(f *Folded) string {
	var b strings.Builder
	st := f.Story
	fmt.Fprintf(&b, "root %s\n", st.Root)
	for _, w := range st.World {
		fmt.Fprintf(&b, "world %s = %v\n", w.Name, w.Default)
	}
	ins := slices.Sorted(maps.Keys(st.Intents))
	fmt.Fprintf(&b, "intents %s\n", strings.Join(ins, " "))
	var ifs []string
	for n, hi := range st.HostInterfaces {
		ifs = append(ifs, n+"->"+hi.Default)
	}
	sort.Strings(ifs)
	fmt.Fprintf(&b, "ifaces %s\n", strings.Join(ifs, " "))
	fmt.Fprintf(&b, "hosts %s\n", strings.Join(st.Hosts, " "))
	for _, s := range st.AllStates() {
		si := f.Info(s.Path)
		fmt.Fprintf(&b, "state %s", s.Path)
		if s.Initial() != "" {
			fmt.Fprintf(&b, " initial=%s", s.Initial())
		}
		if si.Wrapper {
			b.WriteString(" wrapper")
		}
		if len(si.IntentAliases) > 0 {
			var al []string
			for k, v := range si.IntentAliases {
				al = append(al, k+"->"+v)
			}
			sort.Strings(al)
			fmt.Fprintf(&b, " aliases[%s]", strings.Join(al, " "))
		}
		b.WriteString("\n")
		if s.Description != "" {
			fmt.Fprintf(&b, "  desc %q\n", s.Description)
		}
		if s.View != nil && s.View.Template != "" {
			fmt.Fprintf(&b, "  view %q\n", s.View.Template)
		}
		if s.Timeout() != nil {
			fmt.Fprintf(&b, "  timeout %s -> %s\n", s.Timeout().After, s.Timeout().Target)
		}
		dumpEffects(&b, "  enter", s.OnEnter)
		for _, on := range s.On {
			in := on.Intent
			for _, t := range on.Arms {
				fmt.Fprintf(&b, "  on %s -> %q", in, t.Target)
				if t.When != "" {
					fmt.Fprintf(&b, " when %q", t.When)
				}
				b.WriteString("\n")
				dumpEffects(&b, "    eff", t.Effects)
			}
		}
	}
	return b.String()
}

func dumpEffects(b *strings.Builder, pre string, list []*story.Effect) {
	for _, e := range list {
		switch {
		case len(e.Set) > 0:
			fmt.Fprintf(b, "%s set %s\n", pre, pairs(e.Set))
		case e.Invoke != "":
			fmt.Fprintf(b, "%s invoke %s with=%v", pre, e.Invoke, e.With)
			if e.OnError() != "" {
				fmt.Fprintf(b, " on_error=%s", e.OnError())
			}
			if len(e.Bind()) > 0 {
				fmt.Fprintf(b, " bind=%v", e.Bind()[0].Key)
			}
			b.WriteString("\n")
		case e.Say != "":
			fmt.Fprintf(b, "%s say %q\n", pre, e.Say)
		case e.Target() != "":
			fmt.Fprintf(b, "%s target %s\n", pre, e.Target())
		default:
			fmt.Fprintf(b, "%s other emit=%q\n", pre, e.EmitIntent())
		}
		dumpEffects(b, pre+"  complete", e.OnComplete())
	}
}
