package story

// LineCol is a place in the file another field of the same value names:
// 1-based line and column, the zero value when unknown. It is half a Pos,
// for the positions a large story holds one or more of per state.
type LineCol struct{ Line, Col int32 }

// lineColOf is p without its file.
func lineColOf(p Pos) LineCol { return LineCol{Line: int32(p.Line), Col: int32(p.Col)} }

// In is the position in file (the zero Pos when lc is unknown).
func (lc LineCol) In(file string) Pos {
	if lc == (LineCol{}) {
		return Pos{}
	}
	return Pos{File: file, Line: int(lc.Line), Col: int(lc.Col)}
}
