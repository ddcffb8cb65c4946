package story

import "math/bits"

// slab hands out zero values of T cut from chunks it allocates, so a
// story's many small model values (arms, effects and the lists holding
// them) cost one allocation a chunk rather than one each. Chunks grow
// with use, a power of two up to a limit (sizes that fill the allocator's
// size classes for the model's types), so a small file leaves at most a
// chunk's unused tail no larger than what it used. The values live as
// long as the model that holds them: a parse is one model.
type slab[T any] struct {
	free []T
	made int
}

// chunk is the size of the next chunk: the largest power of two not above
// the values made so far, and at least n rounded up to a power of two,
// at most limit.
func (s *slab[T]) chunk(n, limit int) int {
	c := 1
	if s.made > 1 {
		c = 1 << (bits.Len(uint(s.made)) - 1)
	}
	if n > 1 {
		c = max(c, 1<<bits.Len(uint(n-1)))
	}
	return min(c, limit)
}

// one returns a new zero T.
func (s *slab[T]) one(limit int) *T {
	if len(s.free) == 0 {
		s.free = make([]T, s.chunk(1, limit))
	}
	v := &s.free[0]
	s.free = s.free[1:]
	s.made++
	return v
}

// list returns n new zero Ts as a slice of capacity n (an append copies
// it). A list longer than limit has an allocation of its own.
func (s *slab[T]) list(n, limit int) []T {
	if n > limit {
		s.made += n
		return make([]T, n)
	}
	if n > len(s.free) {
		s.free = make([]T, s.chunk(n, limit))
	}
	s.made += n
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// Chunk limits: a chunk of 1, 2 or 3 arms or effects (160 bytes each)
// and one of up to 64 pointers fill a size class exactly. A larger chunk
// would not: an object over 512 bytes that holds pointers carries an
// 8-byte header, which moves 8 arms (1,280 bytes) up to the 1,408-byte
// class.
// Elements (184 bytes) fill one in chunks of 1 or 2.
const (
	valueChunk   = 3
	elementChunk = 2
	pointerChunk = 64
)

// newArms returns n new zero arms and the list of their pointers.
func (p *fileParser) newArms(n int) []*Transition {
	list := p.armPtrs.list(n, pointerChunk)
	for i := range list {
		list[i] = p.arms.one(valueChunk)
	}
	return list
}

// newEffects returns n new zero effects and the list of their pointers.
func (p *fileParser) newEffects(n int) []*Effect {
	list := p.effectPtrs.list(n, pointerChunk)
	for i := range list {
		list[i] = p.effects.one(valueChunk)
	}
	return list
}
