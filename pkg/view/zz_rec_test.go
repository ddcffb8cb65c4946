package view
import "testing"
func TestRecProbe(t *testing.T){
 st, _ := loadLax(t, "/tmp/rec")
 out, err := New(st).RenderView("s", nil, nil)
 t.Logf("%.100q %v", out, err)
}
