package view
import ("testing";"fmt")
func TestProbeKinds(t *testing.T){
 st, errs := loadLax(t, "testdata/kinds"); for _, e := range errs { fmt.Println("LOADERR", e.Line, e.Message) }
 r := New(st, OnWarning(func(e error){ fmt.Println("WARN:", e) }))
 for _, p := range []string{"plain","literal","list","kv","banner","guards","choices","form","media","extends","extends_default","file","broken_file","missing_file","missing_layout","ternary","unterminated","bad_element","escape","outer","outer.inner.leaf","outer.with_view","noview","par#par.r1.a|par.r2.b","par#par.r1.a|par.r2.c","nosuch"} {
   out, err := r.RenderView(p, defaults(st), map[string]any{"slots": map[string]any{"s": "S"}})
   fmt.Printf("=== %s\n%s\nERR=%v\n", p, out, err)
 }
}
