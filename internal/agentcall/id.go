package agentcall

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
)

// ID derives the deterministic call id of an agent call: the first 16
// lowercase hex characters of sha256("agent-call:" + appID + ":" + key).
// The same run yields the same ids; the plugin receives the id the trace uses.
func ID(appID, key string) string {
	sum := sha256.Sum256([]byte("agent-call:" + appID + ":" + key))
	return hex.EncodeToString(sum[:8])
}

// LiveID is the call id of a live call: ID with the key
// "<turn>:<state_path>:<seq>", where seq counts the agent calls made in that
// turn and state (from 0).
func LiveID(appID string, turn int64, statePath string, seq int) string {
	return ID(appID, strconv.FormatInt(turn, 10)+":"+statePath+":"+strconv.Itoa(seq))
}

// CassetteID is the call id of a cassette replay: ID with the key
// "<episodeID>:<matchIdx>".
func CassetteID(appID, episodeID string, matchIdx int) string {
	return ID(appID, episodeID+":"+strconv.Itoa(matchIdx))
}

// RandomUUID is a random (version 4) UUID, the form of upstream's claude
// session ids (a converse's session_id on its default verb path).
func RandomUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
