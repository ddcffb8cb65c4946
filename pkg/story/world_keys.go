package story

import "slices"

// The world keys the engine gives a value without a declaration, one name
// each, so that a writer's typo is a compile error (reservedWorld and
// engineWorld say what each holds).
const (
	WorldLastError      = "last_error"
	WorldHostError      = "host_error"
	WorldWriteModeScope = "write_mode_scope"
	WorldSessionID      = "session_id"
	WorldIDE            = "ide"
	WorldTurnCostUSD    = "turn_cost_usd"
	WorldSessionCostUSD = "session_cost_usd"
	WorldLastJobID      = "last_job_id"
	WorldLastJobStatus  = "last_job_status"
	WorldLastJobResult  = "last_job_result"
	WorldInbox          = "$inbox"
)

// reservedWorld are the world keys the engine owns (story-format §1.2;
// story-runtime §1.1): last_error (seeded "" at session start) and
// host_error hold the error of the last failed call an on_error redirected,
// write_mode_scope is seeded "" and a story may not set it (rule state),
// session_id is seeded with the session's id at every load. A story need not declare them: --world k=v and
// --world-file accept them undeclared, relevant_world may name them, and the
// import fold never prefixes them with a child's <alias>__, so a child at
// any depth reads and writes the top story's key.
var reservedWorld = [...]string{WorldLastError, WorldHostError, WorldWriteModeScope, WorldSessionID}

// engineWorld are the keys the engine gives a value without a declaration
// besides the reserved ones (story-runtime §1.1, §5): ide (seeded at every
// load and before each host call), turn_cost_usd and session_cost_usd
// (seeded 0 at session start, then the costs agent calls report), last_job_id, last_job_status and
// last_job_result (a background job) and $inbox (host.inbox.add). Unlike
// the reserved keys they are not accepted undeclared by --world and the
// fold prefixes them in a child that declares them.
var engineWorld = [...]string{
	WorldIDE, WorldTurnCostUSD, WorldSessionCostUSD,
	WorldLastJobID, WorldLastJobStatus, WorldLastJobResult, WorldInbox,
}

// IsReservedWorld reports whether name is a world key the engine owns:
// last_error, host_error, write_mode_scope or session_id. It needs no
// declaration anywhere (--world, relevant_world) and the import fold
// leaves it bare at every depth.
func IsReservedWorld(name string) bool {
	return slices.Contains(reservedWorld[:], name)
}

// InjectedWorld returns every world key the engine gives a value without a
// declaration, in a fixed order: the reserved keys ([IsReservedWorld]), then ide,
// turn_cost_usd, session_cost_usd, last_job_id, last_job_status,
// last_job_result and $inbox. A world.K read of one of them is never a
// read of a key nothing writes.
func InjectedWorld() []string {
	return slices.Concat(reservedWorld[:], engineWorld[:])
}
