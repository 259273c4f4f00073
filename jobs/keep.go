package jobs

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// This file keeps a tier shard's positions for the solve stage: a tier job
// of a run that is to be solved writes its unique positions, as it visits
// them in order, to one kept blob.
//
// A kept blob is the shard's sorted position keys, squeezed and delta
// coded in blocks:
//
//	header  "CNSK" version:u8 squeeze:u8 rows:u8 cols:u8 game:u8+bytes tier:u32
//	blocks  n:uvarint (1..keepBlock) first:uvarint k:u8 len:uvarint bits:len bytes
//	end     0:uvarint count:uvarint crc32c(all before):u32 "KSNC"
//
// The squeeze moves the high 32-bit plane of a two-plane key (Clobber's
// and Amazons' white stones) down next to the board's squares, so the
// codes of one board lie in 2^(2*squares) rather than 2^64, and keeps the
// order of keys. In a block the gaps between successive codes, less one,
// are Rice coded with the parameter k that makes the block shortest: a gap
// g takes g>>k one-bits, a zero and the k low bits of g. Positions of a
// shard are about evenly spread over the codes, so a gap takes some
// log2(mean gap)+2 bits. A block of keepBlock codes can be decoded alone.
const (
	keptMagic   = "CNSK"
	keptTrailer = "KSNC"
	keptVersion = 1
	keepBlock   = 128
)

// KindKept marks a blob of kept positions, KindTable a solved shard's
// tablebase shard. Neither is a fragment: Kind only names them in job
// specs.
const (
	KindKept  Kind = 64
	KindTable Kind = 65
)

// squeeze is the number of bits the low plane of g's keys takes in a code:
// the board's squares for two-plane keys that fit, else 32 (the key is its
// own code).
func squeeze(g games.Game) uint {
	if sq := g.Board().Squares(); sq < 32 {
		return uint(sq)
	}
	return 32
}

func keyCode(key uint64, s uint) uint64 { return key&(1<<32-1) | key>>32<<s }

func codeKey(code uint64, s uint) uint64 { return code&(1<<s-1) | code>>s<<32 }

// keeper writes a kept blob as positions arrive in increasing order.
type keeper struct {
	w     store.Writer
	bw    *bufio.Writer
	crc   uint32
	name  string
	s     uint
	block []uint64
	count uint64
	last  uint64
	size  int64
	buf   []byte
}

func newKeeper(ctx context.Context, st store.Store, name string, g games.Game, tier int) (*keeper, error) {
	w, err := st.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	k := &keeper{w: w, bw: bufio.NewWriterSize(w, 1<<16), name: name, s: squeeze(g)}
	b := g.Board()
	h := []byte(keptMagic)
	h = append(h, keptVersion, byte(k.s), byte(b.Rows), byte(b.Cols), byte(len(g.Name())))
	h = append(h, g.Name()...)
	h = binary.LittleEndian.AppendUint32(h, uint32(tier))
	return k, k.write(h)
}

func (k *keeper) write(p []byte) error {
	k.crc = crc32.Update(k.crc, castagnoli, p)
	k.size += int64(len(p))
	_, err := k.bw.Write(p)
	return err
}

// add keeps pos, which must be greater than every position kept before.
func (k *keeper) add(pos uint64) error {
	if k.count > 0 && pos <= k.last {
		return fmt.Errorf("%w: kept position %#x after %#x", ErrCorrupt, pos, k.last)
	}
	k.last = pos
	k.count++
	k.block = append(k.block, keyCode(pos, k.s))
	if len(k.block) == keepBlock {
		return k.flush()
	}
	return nil
}

// flush writes the codes of the block.
func (k *keeper) flush() error {
	if len(k.block) == 0 {
		return nil
	}
	k.buf = appendKeptBlock(k.buf[:0], k.block)
	k.block = k.block[:0]
	return k.write(k.buf)
}

// commit ends the blob and makes it visible.
func (k *keeper) commit() (Blob, error) {
	if err := k.flush(); err != nil {
		return Blob{}, err
	}
	end := binary.AppendUvarint(nil, 0)
	end = binary.AppendUvarint(end, k.count)
	if err := k.write(end); err != nil {
		return Blob{}, err
	}
	sum := k.crc
	tail := binary.LittleEndian.AppendUint32(nil, sum)
	tail = append(tail, keptTrailer...)
	if _, err := k.bw.Write(tail); err != nil {
		return Blob{}, err
	}
	if err := k.bw.Flush(); err != nil {
		return Blob{}, err
	}
	if err := k.w.Commit(); err != nil {
		return Blob{}, err
	}
	return Blob{Name: k.name, Kind: KindKept, Size: k.size + int64(len(tail)), Sum: sum, Count: k.count}, nil
}

func (k *keeper) abort() { k.w.Abort() }

// appendKeptBlock appends one block of increasing codes to dst.
func appendKeptBlock(dst []byte, codes []uint64) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(codes)))
	dst = binary.AppendUvarint(dst, codes[0])
	// The cost of parameter k is sum(g>>k) + n*(k+1) bits; it is least
	// near log2 of the mean gap.
	// No parameter below kmin is tried: it would spend more than 2^16
	// one-bits on the largest gap (and could overflow the cost).
	var sum, most uint64
	for i := 1; i < len(codes); i++ {
		g := codes[i] - codes[i-1] - 1
		sum += g
		most = max(most, g)
	}
	n := uint64(len(codes) - 1)
	best, bestCost := uint(0), ^uint64(0)
	if n > 0 {
		k0, kmin := bits.Len64(sum/n), max(bits.Len64(most)-16, 0)
		for kk := max(k0-2, kmin); kk <= max(min(k0+1, 63), kmin); kk++ {
			var cost uint64
			for i := 1; i < len(codes); i++ {
				cost += (codes[i] - codes[i-1] - 1) >> kk
			}
			if cost += n * uint64(kk+1); cost < bestCost {
				best, bestCost = uint(kk), cost
			}
		}
	}
	dst = append(dst, byte(best))
	var bw bitWriter
	for i := 1; i < len(codes); i++ {
		g := codes[i] - codes[i-1] - 1
		for q := g >> best; q > 0; q-- {
			bw.bit(1)
		}
		bw.bit(0)
		bw.bits(g&(1<<best-1), best)
	}
	bw.done()
	dst = binary.AppendUvarint(dst, uint64(len(bw.out)))
	return append(dst, bw.out...)
}

// bitWriter packs bits, least significant first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) bit(b uint64) { w.bits(b, 1) }

func (w *bitWriter) bits(v uint64, n uint) {
	for n > 0 {
		take := min(n, 64-w.nacc, 32)
		w.acc |= (v & (1<<take - 1)) << w.nacc
		w.nacc += take
		v >>= take
		n -= take
		for w.nacc >= 8 {
			w.out = append(w.out, byte(w.acc))
			w.acc >>= 8
			w.nacc -= 8
		}
	}
}

func (w *bitWriter) done() {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	w.acc, w.nacc = 0, 0
}

// readKept reads a whole kept blob and returns its positions, in
// increasing order. It checks the header against g and tier and the
// checksum.
func readKept(ctx context.Context, st store.Store, b Blob, g games.Game, tier int) ([]uint64, error) {
	data, err := readWhole(ctx, st, b)
	if err != nil {
		return nil, err
	}
	keys, err := decodeKept(data, g, tier)
	if err != nil {
		return nil, fmt.Errorf("kept positions %s: %w", b.Name, err)
	}
	return keys, nil
}

// readWhole reads a whole blob.
func readWhole(ctx context.Context, st store.Store, b Blob) ([]byte, error) {
	rc, err := st.Open(ctx, b.Name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", b.Name, err)
	}
	return data, nil
}

var errKeptShort = errors.New("kept blob ends early")

func decodeKept(data []byte, g games.Game, tier int) ([]uint64, error) {
	if len(data) < len(keptMagic)+9+8 || string(data[:4]) != keptMagic || string(data[len(data)-4:]) != keptTrailer {
		return nil, fmt.Errorf("%w: not a kept blob", ErrCorrupt)
	}
	body := data[:len(data)-8]
	if sum := binary.LittleEndian.Uint32(data[len(data)-8:]); crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	b := g.Board()
	s := uint(body[5])
	nl := int(body[8])
	p := 9 + nl
	if body[4] != keptVersion || s != squeeze(g) || int(body[6]) != b.Rows || int(body[7]) != b.Cols ||
		len(body) < p+4 || string(body[9:p]) != g.Name() || int(binary.LittleEndian.Uint32(body[p:])) != tier {
		return nil, fmt.Errorf("%w: header is not of %s %s tier %d", ErrCorrupt, g.Name(), b, tier)
	}
	r := &byteReader{b: body[p+4:]}
	var keys []uint64
	for {
		n := r.uvarint()
		if n == 0 {
			break
		}
		c := r.uvarint()
		k := uint(r.byte())
		blen := r.uvarint()
		if r.err != nil || n > keepBlock || k > 63 || blen > uint64(len(r.b)) {
			return nil, fmt.Errorf("%w: bad block", ErrCorrupt)
		}
		br := bitReader{b: r.b[:blen]}
		r.b = r.b[blen:]
		keys = append(keys, codeKey(c, s))
		for i := uint64(1); i < n; i++ {
			q := br.unary()
			c += q<<k | br.bits(k) + 1
			keys = append(keys, codeKey(c, s))
		}
		if br.short {
			return nil, fmt.Errorf("%w: %w", ErrCorrupt, errKeptShort)
		}
	}
	if count := r.uvarint(); r.err != nil || count != uint64(len(keys)) || len(r.b) != 0 {
		return nil, fmt.Errorf("%w: kept blob holds %d positions, its count is wrong", ErrCorrupt, len(keys))
	}
	return keys, nil
}

type byteReader struct {
	b   []byte
	err error
}

func (r *byteReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errKeptShort
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *byteReader) byte() byte {
	if len(r.b) == 0 {
		r.err = errKeptShort
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

type bitReader struct {
	b     []byte
	pos   uint
	short bool
}

// word is the 64 bits from the reader's position on (zeros past the end).
func (r *bitReader) word() uint64 {
	i := r.pos >> 3
	var w uint64
	if i+8 <= uint(len(r.b)) {
		w = binary.LittleEndian.Uint64(r.b[i:])
	} else {
		for j := uint(0); i+j < uint(len(r.b)); j++ {
			w |= uint64(r.b[i+j]) << (8 * j)
		}
	}
	return w >> (r.pos & 7)
}

// unary reads one-bits up to the next zero and returns how many.
func (r *bitReader) unary() uint64 {
	var q uint64
	for {
		if r.pos >= 8*uint(len(r.b)) {
			r.short = true
			return q
		}
		w := r.word()
		ones := uint(bits.TrailingZeros64(^w))
		if ones < 57 {
			r.pos += ones + 1
			return q + uint64(ones)
		}
		q += 56
		r.pos += 56
	}
}

// bits reads an n-bit number.
func (r *bitReader) bits(n uint) uint64 {
	if n > 56 {
		lo := r.bits(32)
		return lo | r.bits(n-32)<<32
	}
	if r.pos+n > 8*uint(len(r.b)) {
		r.short = true
		return 0
	}
	v := r.word() & (1<<n - 1)
	r.pos += n
	return v
}

// keptBlob names the kept positions of shard of tier. They lie outside the
// tier's prefix: they outlive the tier.
func keptBlob(run string, tier, shard int) string {
	return fmt.Sprintf("%s/kept/t%04d/s%05d.keep", run, tier, shard)
}

// KeptPrefix is the prefix of the kept positions of run.
func KeptPrefix(run string) string { return run + "/kept/" }

// keepPosition keeps pos when the spec asks for it, starting the blob with
// the shard's first position.
func (k *tierKernel) keepPosition(pos uint64) error {
	if !k.j.Keep {
		return nil
	}
	if k.keep == nil {
		kp, err := newKeeper(k.ctx, k.st, keptBlob(k.j.Run, k.j.Tier, k.j.Shard), k.g, k.j.Tier)
		if err != nil {
			return fmt.Errorf("keep positions: %w", err)
		}
		k.keep = kp
	}
	return k.keep.add(pos)
}

// commitKept commits the kept positions, if any.
func (k *tierKernel) commitKept() (*Blob, error) {
	if k.keep == nil {
		return nil, nil
	}
	b, err := k.keep.commit()
	if err != nil {
		return nil, fmt.Errorf("keep positions of tier %d shard %d: %w", k.j.Tier, k.j.Shard, err)
	}
	b.Bucket = k.j.Shard
	k.keep = nil
	return &b, nil
}
