package flowtest

import "kitsoki/pkg/compose"

// emptyBinding is the first host_bindings entry whose handler is "" (or
// null) for a host interface the story declares, an imported child's
// (kid__iface) included: upstream's reload with the fixture's bindings
// refuses the story then ("no default and no host_binding override") and
// its flow run stops (conformance binding-empty). A name the story has no
// interface of is ignored whatever its value, as upstream.
func emptyBinding(ld *compose.Loaded, binds []KV) (KV, bool) {
	ifaces := ld.Story.HostInterfaces
	if ld.Machine != nil && ld.Machine.Folded != nil {
		ifaces = ld.Machine.Folded.Story.HostInterfaces
	}
	for _, kv := range binds {
		if to, _ := kv.Value.(string); to == "" && ifaces[kv.Key] != nil {
			return kv, true
		}
	}
	return KV{}, false
}
