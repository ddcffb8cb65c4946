package story

import (
	"path/filepath"
	"strings"
)

// PromptSearch is where a prompt file's {% include %}, {% extends %} and
// {% import %} names resolve (story-format §6.3): the prompts overlay
// (when set), the story directory and its prompts/, in that order, and
// the directories of the @shared namespace. A say: and the other inline
// templates search the story directory alone; views search views/.
func (st *Story) PromptSearch() (dirs, shared []string) {
	if o := st.promptOverlay(); o != "" {
		dirs = append(dirs, o)
	}
	dirs = append(dirs, st.Dir, filepath.Join(st.Dir, "prompts"))
	if st.Prompts != nil {
		for _, d := range st.Prompts.Shared {
			shared = append(shared, beside(st.Dir, d))
		}
	}
	return dirs, shared
}

// promptOverlay is the prompts overlay directory ("" = none).
func (st *Story) promptOverlay() string {
	if st.Prompts == nil || strings.TrimSpace(st.Prompts.Overlay) == "" {
		return ""
	}
	return beside(st.Dir, st.Prompts.Overlay)
}
