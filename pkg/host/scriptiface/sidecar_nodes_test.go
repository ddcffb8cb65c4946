package scriptiface

import (
	"testing"

	"kitsoki/internal/yamlnode"
)

// TestSidecarCapHoldsNoMoreThanTheNodeLimit: Parse reads a sidecar with
// yaml.v3 directly, as no file within MaxBytes can pass
// yamlnode.MaxTreeNodes (a node takes 2/3 of a byte at least). Raising
// the cap past that needs the bounded read (yamlnode.UnmarshalPlain).
func TestSidecarCapHoldsNoMoreThanTheNodeLimit(t *testing.T) {
	if MaxBytes > yamlnode.MaxTreeNodes*2/3 {
		t.Errorf("MaxBytes %d can hold more than %d YAML nodes: read the sidecar with yamlnode.UnmarshalPlain", MaxBytes, yamlnode.MaxTreeNodes)
	}
}
