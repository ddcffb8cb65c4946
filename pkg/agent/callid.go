package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// CallID derives the deterministic call id of an agent call: the first 16
// lowercase hex characters of sha256("agent-call:" + appID + ":" + key).
// The same run yields the same ids; the plugin receives the id the trace uses.
func CallID(appID, key string) string {
	sum := sha256.Sum256([]byte("agent-call:" + appID + ":" + key))
	return hex.EncodeToString(sum[:8])
}

// LiveKey is the call-id key of a live call: "<turn>:<state_path>:<seq>",
// where seq counts the agent calls made in that turn and state (from 0).
func LiveKey(turn int64, statePath string, seq int) string {
	return strconv.FormatInt(turn, 10) + ":" + statePath + ":" + strconv.Itoa(seq)
}

// CassetteKey is the call-id key of a cassette replay: "<episodeID>:<matchIdx>".
func CassetteKey(episodeID string, matchIdx int) string {
	return episodeID + ":" + strconv.Itoa(matchIdx)
}

// LiveCallID is CallID(appID, LiveKey(turn, statePath, seq)).
func LiveCallID(appID string, turn int64, statePath string, seq int) string {
	return CallID(appID, LiveKey(turn, statePath, seq))
}

// CassetteCallID is CallID(appID, CassetteKey(episodeID, matchIdx)).
func CassetteCallID(appID, episodeID string, matchIdx int) string {
	return CallID(appID, CassetteKey(episodeID, matchIdx))
}
