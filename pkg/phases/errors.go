package phases

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// Problem is one expansion error at the place it was written.
type Problem struct {
	Pos     story.Pos
	Message string
}

func (p Problem) String() string {
	if p.Pos.File == "" && p.Pos.Line == 0 {
		return p.Message
	}
	if p.Pos.Line == 0 {
		return p.Pos.File + ": " + p.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.Pos.File, p.Pos.Line, p.Pos.Col, p.Message)
}

// Error lists every problem of a phase expansion, in position order.
type Error struct {
	Problems []Problem
	// TooLarge: the expansion passed the bounds of limits.go.
	TooLarge bool
}

func (e *Error) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].String()
	}
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return fmt.Sprintf("%d problems:\n  %s", len(e.Problems), strings.Join(parts, "\n  "))
}

type problems struct {
	list     []Problem
	seen     map[Problem]bool
	tooLarge bool
}

func (ps *problems) add(p story.Pos, format string, a ...any) {
	pr := Problem{Pos: p, Message: fmt.Sprintf(format, a...)}
	if ps.seen == nil {
		ps.seen = map[Problem]bool{}
	}
	if ps.seen[pr] {
		return
	}
	ps.seen[pr] = true
	ps.list = append(ps.list, pr)
}

func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	slices.SortStableFunc(ps.list, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col), cmp.Compare(a.Message, b.Message))
	})
	return &Error{Problems: ps.list, TooLarge: ps.tooLarge}
}
