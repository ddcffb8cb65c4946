package host

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// HandlerVideoFrame is upstream's single-frame grabber (ffmpeg).
const HandlerVideoFrame = "host.video.frame"

// videoFrameHandler serves host.video.frame as upstream answers it without
// ffmpeg: video (a path, or a media handle map with a path, as
// host.artifacts_dir returns) and t_ms (a number of milliseconds, or a
// string holding a whole one, not negative) are checked first, then
// ffmpeg is looked for. With ffmpeg installed kitsoki runs nothing
// (docs/compat/hosts.md).
type videoFrameHandler struct{ look lookPathFunc }

func (h videoFrameHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = HandlerVideoFrame
	var video string
	switch v := c.Args["video"].(type) {
	case nil:
	case string:
		video = strings.TrimSpace(v)
	case map[string]any:
		p, _ := v["path"].(string)
		if video = strings.TrimSpace(p); video == "" {
			return domainErr("%s: video handle has no `path` field", name), nil
		}
	default:
		return domainErr("%s: video argument must be a path string or a media handle map, got %s", name, goTypeName(v)), nil
	}
	if video == "" {
		return domainErr("%s: video argument is required", name), nil
	}
	raw, ok := c.Args["t_ms"]
	if !ok {
		return domainErr("%s: t_ms argument is required", name), nil
	}
	ms, bad := millisArg(raw)
	if bad != "" {
		return domainErr("%s: t_ms must be a number, got %s", name, bad), nil
	}
	if ms < 0 {
		return domainErr("%s: t_ms must be >= 0, got %d", name, ms), nil
	}
	if !cliPresent(h.look, "ffmpeg") {
		return domainErr("%s: %s", name, ffmpegMissing), nil
	}
	return notDriven(name, "ffmpeg", fmt.Sprintf("frame at %d ms of %s", ms, video)), nil
}

// millisArg reads t_ms as upstream: a number (a float truncated toward
// zero) or a string holding a whole number (trimmed); else the Go type
// name it reports. A uint64 (a YAML whole number that is not negative) is
// refused, as upstream refuses it (conformance run-int-uint64).
func millisArg(v any) (int64, string) {
	if _, ok := v.(uint64); ok {
		return 0, goTypeName(v)
	}
	if n, ok := jsonvalue.Integer(v); ok {
		return n, ""
	}
	switch t := v.(type) {
	case float64:
		if !math.IsNaN(t) {
			return int64(t), ""
		}
	case float32:
		return int64(t), ""
	case string:
		if n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64); err == nil {
			return n, ""
		}
	}
	return 0, goTypeName(v)
}

// goTypeName is the type name upstream's messages print for a decoded
// argument: Go's %T of the value, which kitsoki holds as upstream does (a
// YAML whole number a uint64, a negative one an int64, a computed one an
// int; conformance video-frame-args).
func goTypeName(v any) string {
	return fmt.Sprintf("%T", v)
}
