package expr

import "testing"

var simpleTemplateSeeds = []string{
	"{{ slots.question }}", "{{ world.last_job_result.stdout }}", "docs-review-{{ world.review_mode }}-{{ world.commit_sha }}.json",
	"{{world.a}}", "{{ world.a }}}}", "}} {{ world.a }}", "{{ world.disturbance > 2 }}", "{{ slots.a ?? world.b }}",
	"{{ foo.bar }}", "{{ world }}", "{{ world. }}", "{{ world.in }}", "{{ world.a", "{{ world.1 }}", "{{ world.a_1.B }}",
	"{{ if world.a }}x{{ end }}", "{{\tworld.a }}", "{{ world.$a }}", "{{ item.x }} {{ run.y }} {{ inbox.z }}", "",
	"plain text", "{{ world.é }}", "{{ world.a }} {{", "{{ }}",
	"{{ slots.test_cmd ?? world.test_cmd }}", "{{ world.pr_url ?? '(pending)' }}", "x {{ world.a ?? world.b ?? 'c' }} y",
	"{{ world.a ?? }}", "{{ world.a ?? 'x}}' }}", "{{ world.a ?? foo.b }}", "{{ world.a ?? \"q\" }}", "{{ world.a ?? 1 }}",
}

var simpleGuardSeeds = []string{
	"world.last_job_id == ''", "slots.direction == 'south'", "world.wearing_cloak == true", "world.wearing_cloak",
	"not world.wearing_cloak", "!world.x", "world.verdict.decision == \"needs_update\"", "world.last_job_result.exit_code < 1",
	"world.n >= 10", "world.n > 0123", "world.a == nil", "world.a != 'x y'", "world.a == 'it''s'", "world.a == 'a\\'b'",
	"world.a == 1.5", "world.a == -1", "foo.a == 1", "world.a && world.b", "not world.a == 1", "world.in", "world.a ==  1",
	"world.a == 'x", "world.a < 'x'", "!!world.a", "world.a == `x`", "world.a == 9999999999", "world.a == 0",
	"world.a == true && !world.b", "world.c == 'success' && world.n > 0", "world.m == 'llm' || world.m == 'h'",
	"world.a &&", "&& world.a", "world.a == 'x && y'", "world.a ==  'x' || world.b", "world.a && foo.b", "not world.a && world.b",
}

// TestSimpleTemplateAndGuard: what SimpleTemplate and SimpleGuard accept
// compiles; both sides of their line are seeded.
func TestSimpleTemplateAndGuard(t *testing.T) {
	acc := 0
	for _, s := range simpleTemplateSeeds {
		if SimpleTemplate(s) {
			acc++
			if _, err := CompileTemplate(s); err != nil {
				t.Errorf("SimpleTemplate(%q) but CompileTemplate fails: %v", s, err)
			}
		}
	}
	if acc < 5 || acc == len(simpleTemplateSeeds) {
		t.Fatalf("SimpleTemplate accepted %d of %d seeds", acc, len(simpleTemplateSeeds))
	}
	acc = 0
	for _, s := range simpleGuardSeeds {
		if SimpleGuard(s) {
			acc++
			if _, err := CompileGuard(s); err != nil {
				t.Errorf("SimpleGuard(%q) but CompileGuard fails: %v", s, err)
			}
		}
	}
	if acc < 5 || acc == len(simpleGuardSeeds) {
		t.Fatalf("SimpleGuard accepted %d of %d seeds", acc, len(simpleGuardSeeds))
	}
	for _, s := range []string{"{{ foo.bar }}", "{{ world.in }}", "{{ world }}"} {
		if SimpleTemplate(s) {
			t.Errorf("SimpleTemplate(%q) = true", s)
		}
	}
	for _, s := range []string{"foo.a == 1", "world.a && foo.b", "world.a == 'a\\'b'", "world.a &&"} {
		if SimpleGuard(s) {
			t.Errorf("SimpleGuard(%q) = true", s)
		}
	}
}

// FuzzSimpleTemplate: whatever SimpleTemplate accepts, CompileTemplate
// compiles.
func FuzzSimpleTemplate(f *testing.F) {
	for _, s := range simpleTemplateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 || !SimpleTemplate(s) {
			return
		}
		if _, err := CompileTemplate(s); err != nil {
			t.Fatalf("SimpleTemplate(%q) but CompileTemplate fails: %v", s, err)
		}
	})
}

// FuzzSimpleGuard: whatever SimpleGuard accepts, CompileGuard compiles.
func FuzzSimpleGuard(f *testing.F) {
	for _, s := range simpleGuardSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 || !SimpleGuard(s) {
			return
		}
		if _, err := CompileGuard(s); err != nil {
			t.Fatalf("SimpleGuard(%q) but CompileGuard fails: %v", s, err)
		}
	})
}
