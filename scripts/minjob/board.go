package main

import "math/bits"

// A key holds a Clobber position of n = rows*cols squares as two planes:
// the stones of x (Left) in bits n to 2n-1 and those of o (Right) in bits
// 0 to n-1, square (r, c) at bit r*cols+c of its plane.

// moveKinds is the number of kinds of move: two colours times four
// directions (right, left, down, up). The squares from which the moves
// of two kinds start share a 64-bit mask, 32 bits each, so that a
// position's moves are found in four loops over set bits.
const (
	moveKinds = 8
	movePairs = moveKinds / 2
)

// board is the geometry of a rows x cols Clobber board: its masks, its
// symmetries and each move's change of the key with its images.
type board struct {
	rows, cols, n int
	ng            int    // symmetries: 4 for a rectangle, 8 for a square
	plane         uint64 // the n bits of one plane
	row0          uint64 // row 0 of both planes
	notFirst      uint64 // the squares of one plane not in column 0
	notLast       uint64 // the squares of one plane not in the last column
	// swap[g] is set if map g of the group (see images) swaps the colours
	// after moving the squares: the census's group is the maps that fix
	// the start, and a mirror that swaps the colours of the checkerboard
	// fixes it only followed by a swap.
	swap [8]bool
	// tr[c][v] is the transposed image of the key's byte c holding v
	// (square boards only).
	tr [][256]uint64
	// move[kind*32+s] holds the images, under each map of the group, of
	// the change of the key made by the move of that kind from square s.
	move [][8]uint64
}

// newBoard returns the board of rows x cols, which must have at most 32
// squares.
func newBoard(rows, cols int) *board {
	n := rows * cols
	b := &board{rows: rows, cols: cols, n: n, ng: 4}
	b.plane = 1<<n - 1
	b.row0 = (1<<cols - 1) | (1<<cols-1)<<n
	for s := range n {
		if s%cols != 0 {
			b.notFirst |= 1 << s
		}
		if s%cols != cols-1 {
			b.notLast |= 1 << s
		}
	}
	if rows == cols {
		b.ng = 8
		b.tr = make([][256]uint64, (2*n+7)/8)
		for c := range b.tr {
			for v := range 256 {
				b.tr[c][v] = b.permute(uint64(v)<<(8*c), func(r, c int) int { return c*cols + r })
			}
		}
	}
	// The geometric maps are those of images with no swap after: those
	// that do not fix the start do once the colours are swapped.
	var img [8]uint64
	b.images(b.start(), &img)
	for g := range b.ng {
		b.swap[g] = img[g] != b.start()
	}
	b.move = make([][8]uint64, moveKinds*32)
	for kind := range moveKinds {
		for s := range n {
			t := s + [4]int{1, -1, cols, -cols}[kind%4]
			if t < 0 || t >= n {
				continue
			}
			var d uint64
			if kind < 4 { // x moves from s to t and takes o's stone on t
				d = (1<<s|1<<t)<<n | 1<<t
			} else { // o moves from s to t and takes x's stone on t
				d = 1<<t<<n | 1<<s | 1<<t
			}
			b.images(d, &b.move[kind*32+s])
		}
	}
	return b
}

// permute returns the image of key under the map of squares that sends
// (r, c) to square to(r, c), one bit at a time.
func (b *board) permute(key uint64, to func(r, c int) int) uint64 {
	var out uint64
	for s := range b.n {
		t := to(s/b.cols, s%b.cols)
		out |= (key >> s & 1) << t
		out |= (key >> (s + b.n) & 1) << (t + b.n)
	}
	return out
}

// start is the checkerboard of the start: x on the squares whose row
// and column add up to an even number, o on the others.
func (b *board) start() uint64 {
	var x, o uint64
	for s := range b.n {
		if (s/b.cols+s%b.cols)%2 == 0 {
			x |= 1 << s
		} else {
			o |= 1 << s
		}
	}
	return x<<b.n | o
}

// flip mirrors key top to bottom, both planes at once, a row at a time.
func (b *board) flip(key uint64) uint64 {
	var out uint64
	for r := range b.rows {
		out |= (key >> (r * b.cols) & b.row0) << ((b.rows - 1 - r) * b.cols)
	}
	return out
}

// rev turns key by 180 degrees and swaps the colours: it reverses the 2n
// bits of the key, which reverses the squares of each plane and swaps the
// planes.
func (b *board) rev(key uint64) uint64 {
	return bits.Reverse64(key) >> (64 - 2*b.n)
}

// transpose mirrors key about its main diagonal (square boards only).
func (b *board) transpose(key uint64) uint64 {
	var out uint64
	for c := range b.tr {
		out |= b.tr[c][key>>(8*c)&0xff]
	}
	return out
}

// images sets img[0:b.ng] to the images of key under the maps of the
// group: identity, top-bottom mirror, rotation by 180 degrees, left-right
// mirror and, on a square board, those four after a transposition, each
// followed by a swap of the colours where that makes it fix the start
// (b.swap), as the census's group does. Each is a permutation of the
// bits, so the image of a XOR is the XOR of the images.
func (b *board) images(key uint64, img *[8]uint64) {
	f := b.flip(key)
	img[0] = key
	img[1] = b.swapIf(f, b.swap[1])
	img[2] = b.swapIf(b.rev(key), !b.swap[2])
	img[3] = b.swapIf(b.rev(f), !b.swap[3])
	if b.ng == 8 {
		t := b.transpose(key)
		tf := b.flip(t)
		img[4] = b.swapIf(t, b.swap[4])
		img[5] = b.swapIf(tf, b.swap[5])
		img[6] = b.swapIf(b.rev(t), !b.swap[6])
		img[7] = b.swapIf(b.rev(tf), !b.swap[7])
	}
}

// swapIf swaps the colours of key, its two planes, if swap is set.
func (b *board) swapIf(key uint64, swap bool) uint64 {
	if swap {
		return key>>b.n | (key&b.plane)<<b.n
	}
	return key
}

// canon returns the canonical key of key: the least of its images.
func (b *board) canon(key uint64) uint64 {
	var img [8]uint64
	b.images(key, &img)
	return minImage(&img, b.ng)
}

// minImage returns the least of img[0:ng].
func minImage(img *[8]uint64, ng int) uint64 {
	c := img[0]
	for g := 1; g < ng; g++ {
		c = min(c, img[g])
	}
	return c
}

// sources sets src[pair] to the squares from which a move of each kind
// can be made in the position key, kind 2*pair in the low 32 bits and
// kind 2*pair+1 in the high ones: for x, kinds 0 to 3, the stones of x
// with a stone of o next to them to the right, left, below and above;
// for o, kinds 4 to 7, the same with the colours swapped. All the
// captures of one colour in one direction are one shift and one AND.
func (b *board) sources(key uint64, src *[movePairs]uint64) {
	x, o := key>>b.n, key&b.plane
	src[0] = x&(o>>1)&b.notLast | (x&(o<<1)&b.notFirst)<<32
	src[1] = x&(o>>b.cols) | (x&(o<<b.cols))<<32
	src[2] = o&(x>>1)&b.notLast | (o&(x<<1)&b.notFirst)<<32
	src[3] = o&(x>>b.cols) | (o&(x<<b.cols))<<32
}

// canonMove returns the canonical key of the successor made by the move
// whose change has the images d, given the images img of the position:
// the least of the XORs of the images.
func canonMove(img, d *[8]uint64, ng int) uint64 {
	c := min(img[0]^d[0], img[1]^d[1], img[2]^d[2], img[3]^d[3])
	if ng == 8 {
		c = min(c, img[4]^d[4], img[5]^d[5], img[6]^d[6], img[7]^d[7])
	}
	return c
}

// orbit returns the number of distinct images of key, given its images:
// the number of symmetries over the number of them that fix key.
func orbit(key uint64, img *[8]uint64, ng int) int {
	fixed := 0
	for g := range ng {
		if img[g] == key {
			fixed++
		}
	}
	return ng / fixed
}

// shardOf is the shard of key among n: the high word of the splitmix64
// finaliser of key times n.
func shardOf(key uint64, n int) int {
	key ^= key >> 30
	key *= 0xbf58476d1ce4e5b9
	key ^= key >> 27
	key *= 0x94d049bb133111eb
	key ^= key >> 31
	hi, _ := bits.Mul64(key, uint64(n))
	return int(hi)
}
