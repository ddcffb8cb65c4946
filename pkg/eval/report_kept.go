package eval

import (
	"path/filepath"
)

// KeptLatest says why a run or merge of d writing r leaves
// reports/<call>/latest.json as it is ("" when r replaces it): the file
// is the report of another dataset of the call ([LatestOfOther]), or r
// is a --cassette replay and latest.json is evidence from live agents,
// which a replay never stands in for. Either way r goes to its
// timestamped file alone.
func KeptLatest(d *Dataset, r *Report) string {
	if other := LatestOfOther(d); other != "" {
		return "it is the report of " + other + ", another dataset of call " + d.Call + " (its evidence); this dataset's latest is the report above"
	}
	if r.Run == nil || r.Run.Mode != "cassette" || liveLatest(d) == nil {
		return ""
	}
	return "it is evidence from live agents and this --cassette run is a replay, which never replaces it; the replay's report is the file above (-o FILE writes it elsewhere; delete latest.json to let replays replace it)"
}

// liveLatest is d's reports/<call>/latest.json when it parses, is d's
// ([Dataset.owns]) and was not written by a --cassette run (run.mode
// cassette): reports of live runs and upstream's, which have no run
// block, are live. Nil otherwise.
func liveLatest(d *Dataset) *Report {
	root := datasetRoot(d.Path)
	defer root.Close()
	r, err := loadReportIn(root, filepath.Join(reportsDir(d), "latest.json"))
	if err != nil || !d.owns(root, r) || (r.Run != nil && r.Run.Mode == "cassette") {
		return nil
	}
	return r
}
