package fetch

// parsePins parses one pin file (the format of pins/*.yaml and of an
// overlay) and checks every entry. source names the file in errors.
func parsePins(data []byte, source string) (*Pins, error) {
	p := &Pins{LlamaServers: map[string]*Artifact{}, Models: map[string]*Artifact{}, Shims: map[string]*Artifact{}}
	if err := p.merge(data, source); err != nil {
		return nil, err
	}
	return p, nil
}
