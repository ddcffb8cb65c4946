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

// liveKey is the call-id key of a live call: "<turn>:<state_path>:<seq>",
// where seq counts the agent calls made in that turn and state (from 0).
func liveKey(turn int64, statePath string, seq int) string {
	return strconv.FormatInt(turn, 10) + ":" + statePath + ":" + strconv.Itoa(seq)
}

// cassetteKey is the call-id key of a cassette replay: "<episodeID>:<matchIdx>".
func cassetteKey(episodeID string, matchIdx int) string {
	return episodeID + ":" + strconv.Itoa(matchIdx)
}

// LiveCallID is the call id of a live call: CallID with the key
// "<turn>:<state_path>:<seq>", where seq counts the agent calls made in that
// turn and state (from 0).
func LiveCallID(appID string, turn int64, statePath string, seq int) string {
	return CallID(appID, liveKey(turn, statePath, seq))
}

// CassetteCallID is the call id of a cassette replay: CallID with the key
// "<episodeID>:<matchIdx>".
func CassetteCallID(appID, episodeID string, matchIdx int) string {
	return CallID(appID, cassetteKey(episodeID, matchIdx))
}
