package safefile

// The caps, by what a file holds. A file over its cap is refused with an
// error naming the file, its size and the cap.
const (
	// StoryYAML is the cap for story YAML: app.yaml, include: files and
	// imported children (and the readers quoting their lines).
	StoryYAML int64 = 64 << 20
	// Story is the cap for the other files a story names: prompt and view
	// templates, persona prompts, schemas and Starlark scripts.
	Story int64 = 4 << 20
	// Data is the cap for run inputs, fixtures, eval datasets and reports.
	Data int64 = 16 << 20
	// Cassette is the cap for --cassette (an agent cassette or a whole
	// trace replayed as one).
	Cassette int64 = 256 << 20
)

// Stream is the cap for files read as a stream of bounded records (a
// trace: the reader refuses any line over its frame cap), so only the
// regular-file check applies.
const Stream int64 = 1 << 62
