#!/usr/bin/env python3
"""Writes the golden fragments of fragment_test.go from the format that
codec/fragment/doc.go documents, without the Go code:

    header  "CNSF" version:u8 kind:u8 rows:u8 cols:u8 game:u8+bytes tier:u32 count:u64
    payload count records of uvarints
    trailer crc32c(header+payload):u32 "FSNC"

Integers in the header and trailer are little-endian. Run from
codec/fragment/testdata.
"""
import struct


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def uvarint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


M = 1 << 64


def fragment(kind, game, rows, cols, tier, count, payload):
    head = b"CNSF" + bytes([1, kind, rows, cols, len(game)]) + game.encode()
    head += struct.pack("<IQ", tier, count)
    body = head + payload
    return body + struct.pack("<I", crc32c(body)) + b"FSNC"


def keys(kind, game, rows, cols, tier, ks):
    prev, payload = 0, b""
    for k in ks:
        payload += uvarint((k - prev) % M)
        prev = k
    return fragment(kind, game, rows, cols, tier, len(ks), payload)


def piece_key(prev, k):
    if k[0] == prev[0]:
        return uvarint(0) + uvarint((k[1] - prev[1]) % M)
    return uvarint((k[0] - prev[0]) % M) + uvarint(k[1])


# Positions of Clobber 2x2, tier 1: key 0 first, a few small keys, the
# largest key.
POSITIONS = [0, 1, 300, (1 << 32) | 5, M - 1]
# Pieces: (hi, lo, positions, first tier), in increasing (hi, lo) order.
PIECES = [(0x102, 2 | 1 << 32, 1, 3), (0x102, 1 | 2 << 32, 7, 0), (0x201, 3, 1 << 40, 2), (0x202, M - 1, 1, 0)]
# Class pairs, the classes fragments of earlier versions, still read:
# (neg hi, neg lo, sym hi, sym lo, self-negative).
CLASS_PAIRS = [(0x102, 2 | 1 << 32, 0x102, 2 | 1 << 32, 1), (0x102, 3, 0x102, 3, 0), (0x102, 3, 0x102, 3 << 32, 0), (0x202, 7, 0x203, 7, 1)]
# Classes: (neg hi, neg lo, flags), flags 1 self-negative, 2 the other
# symmetric class of the negation class. The same classes as CLASS_PAIRS.
CLASSES = [(0x102, 2 | 1 << 32, 1), (0x102, 3, 0), (0x102, 3, 2), (0x202, 7, 3)]
# Piece rows: a piece (hi, lo, positions, first tier), then its symmetric
# and negation classes (hi, lo each) and whether it is self-negative.
PIECE_ROWS = [(0x102, 2 | 1 << 32, 1, 3, 0x102, 2 | 1 << 32, 0x102, 2 | 1 << 32, 1),
              (0x102, 3 << 32, 7, 0, 0x102, 3, 0x102, 3, 0),
              (0x202, M - 1, 1 << 40, 2, 0x203, 7, 0x202, 7, 0)]


def main():
    with open("golden-positions.frag", "wb") as f:
        f.write(keys(1, "clobber", 2, 2, 1, POSITIONS))
    payload, prev = b"", (0, 0)
    for hi, lo, n, first in PIECES:
        payload += piece_key(prev, (hi, lo)) + uvarint(n) + uvarint(first)
        prev = (hi, lo)
    with open("golden-pieces.frag", "wb") as f:
        f.write(fragment(4, "clobber", 2, 2, 0, len(PIECES), payload))
    payload, prev = b"", (0, 0)
    for nh, nl, sh, sl, s in CLASS_PAIRS:
        payload += piece_key(prev, (nh, nl)) + uvarint(sh) + uvarint(sl) + uvarint(s)
        prev = (nh, nl)
    with open("golden-classpairs.frag", "wb") as f:
        f.write(fragment(5, "clobber", 2, 2, 0, len(CLASS_PAIRS), payload))
    payload, prev = b"", (0, 0)
    for nh, nl, flags in CLASSES:
        payload += piece_key(prev, (nh, nl)) + uvarint(flags)
        prev = (nh, nl)
    with open("golden-classes.frag", "wb") as f:
        f.write(fragment(7, "clobber", 2, 2, 0, len(CLASSES), payload))
    payload, prev = b"", (0, 0)
    for hi, lo, n, first, sh, sl, nh, nl, s in PIECE_ROWS:
        payload += piece_key(prev, (hi, lo)) + uvarint(n) + uvarint(first)
        payload += uvarint(sh) + uvarint(sl) + uvarint(nh) + uvarint(nl) + uvarint(s)
        prev = (hi, lo)
    with open("golden-piecerows.frag", "wb") as f:
        f.write(fragment(6, "clobber", 2, 2, 0, len(PIECE_ROWS), payload))


main()
