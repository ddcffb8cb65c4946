package yamlnode

import (
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
)

// Place names a block in messages (`state "a".on_enter[2]`), put together
// only when a message needs it.
type Place struct {
	Pre, Where string
	Quote      bool
	Key        string
	Keyed      bool // Key is set (it may be empty)
	Idx        int
	Indexed    bool
}

func (pl Place) String() string {
	s := pl.Where
	if pl.Quote {
		s = strconv.Quote(s)
	}
	if pl.Keyed {
		s += "." + KeyText(pl.Key)
	}
	if pl.Indexed {
		s = Indexed(s, pl.Idx)
	}
	return pl.Pre + s
}

// named is the state a block placed `state "path"...` lies in, as data
// (no place for any other block).
func (pl Place) named() diag.Place {
	if pl.Pre == "state " && pl.Quote {
		return diag.StatePlace(pl.Where)
	}
	return diag.Place{}
}

// Item is the place of item i of the list at pl.
func (pl Place) Item(i int) Place {
	if pl.Indexed {
		return Place{Pre: pl.Pre, Where: pl.String()[len(pl.Pre):], Idx: i, Indexed: true}
	}
	pl.Idx, pl.Indexed = i, true
	return pl
}

// Dot names key of the mapping at pl (key alone at a file's top level).
func (pl Place) Dot(key string) string {
	if pl == (Place{}) {
		return KeyText(key)
	}
	return pl.String() + "." + KeyText(key)
}

// KeyText is key as a message names it: quoted when it holds a line
// break, which would otherwise end the message there (appendDiag keeps a
// message's first line only, so `states.a.on."i\nb": expected a list`
// was cut to `states.a.on.i`).
func KeyText(key string) string {
	if strings.ContainsAny(key, "\n\r") {
		return strconv.Quote(key)
	}
	return key
}
