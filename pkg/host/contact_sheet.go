package host

import (
	"context"
	"strings"
)

// HandlerContactSheet is upstream's frame contact sheet maker (ffmpeg).
const HandlerContactSheet = "host.contact_sheet"

// ffmpegMissing is upstream's answer of its ffmpeg handlers without ffmpeg.
const ffmpegMissing = "ffmpeg not found — install ffmpeg and ensure it is on PATH"

// contactSheetHandler serves host.contact_sheet as upstream answers it
// without ffmpeg: dir is required, then ffmpeg's absence, before the
// directory or any other argument is looked at. With ffmpeg installed
// kitsoki runs nothing (docs/compat/hosts.md).
type contactSheetHandler struct{ look lookPathFunc }

func (h contactSheetHandler) Call(ctx context.Context, c *Call) (Result, error) {
	dir := strings.TrimSpace(strArg(c.Args, "dir"))
	if dir == "" {
		return domainErr("%s: dir argument is required", HandlerContactSheet), nil
	}
	if !cliPresent(h.look, "ffmpeg") {
		return domainErr("%s: %s", HandlerContactSheet, ffmpegMissing), nil
	}
	return notDriven(HandlerContactSheet, "ffmpeg", "frames of "+dir), nil
}
