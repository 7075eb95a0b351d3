#!/usr/bin/env python3
"""Pack tool search's byte tables into four bits per number: half the bytes in the binary.

Usage:
    python3 scripts/pack-nibbles.py token-vectors-8bit.bin crates/search/data/token-vectors.bin
    python3 scripts/pack-nibbles.py word-vectors-8bit.bin crates/search/data/word-vectors.bin

The input is what `scripts/train-table.py` (`TSTV1`, a scale per row) or
`scripts/word-vectors.py` (`TSWV1`, rows scaled to ±127) writes. Each row is divided by its
root mean square, so that every row's numbers follow one distribution; a codebook of 16
values is fitted to that distribution by Lloyd-Max (one-dimensional k-means, run on a
histogram of 8,192 bins so that it takes seconds in plain Python), and each number is
replaced by its nearest code. Sixteen levels placed where the numbers are dense keep more
of a row's direction than sixteen evenly spaced ones: the script prints the mean cosine
between each row before and after (1.0 would be lossless).

Output formats (all integers little-endian):

    TSTV2\\n  u32 rows, u16 dimensions, u8 flags (bit 0: lowercase the text)
             the tokens, each followed by \\n
             16 f32: the codebook
             rows f32: each row's scale (its root mean square)
             rows × dimensions / 2 bytes: codes, two per byte, low nibble first
    TSWV2\\n  u32 rows, u16 dimensions
             the words, each followed by \\n
             16 f32: the codebook
             rows × dimensions / 2 bytes: codes as above (no scale: the search uses the
             vectors' directions only)

Dimensions must be even. Deterministic: the same input gives the same bytes.
"""

import argparse
import math
import struct
import sys
from array import array
from pathlib import Path

LEVELS = 16
BINS = 8192
ITERATIONS = 60


def read_rows(raw: bytes):
    """(magic, header fields, names, rows as lists of floats) of a TSTV1 or TSWV1 file."""
    magic = raw[:6]
    if magic == b"TSTV1\n":
        count, dims, flags = struct.unpack_from("<IHB", raw, 6)
        at = 13
    elif magic == b"TSWV1\n":
        count, dims = struct.unpack_from("<IH", raw, 6)
        flags = None
        at = 12
    else:
        sys.exit("not a TSTV1 or TSWV1 table")
    names = []
    for _ in range(count):
        end = raw.index(b"\n", at)
        names.append(raw[at:end])
        at = end + 1
    if flags is not None:
        scales = array("f")
        scales.frombytes(raw[at:at + 4 * count])
        at += 4 * count
    else:
        scales = [1.0] * count
    values = array("b")
    values.frombytes(raw[at:at + count * dims])
    rows = [[scales[r] * values[r * dims + d] for d in range(dims)] for r in range(count)]
    return magic, (count, dims, flags), names, rows


def rms(row):
    return math.sqrt(sum(x * x for x in row) / len(row))


def fit_codebook(normalized_rows):
    """Lloyd-Max codes for the numbers of all rows, fitted on a histogram of them."""
    low = min(min(row) for row in normalized_rows)
    high = max(max(row) for row in normalized_rows)
    width = (high - low) / BINS
    counts = [0] * BINS
    for row in normalized_rows:
        for x in row:
            counts[min(BINS - 1, int((x - low) / width))] += 1
    centres = [low + (i + 0.5) * width for i in range(BINS)]
    total = sum(counts)
    # Start from the distribution's quantiles: one code per sixteenth of the numbers.
    codes, seen, want = [], 0, 0
    for i, n in enumerate(counts):
        seen += n
        while want < LEVELS and seen >= (want + 0.5) * total / LEVELS:
            codes.append(centres[i])
            want += 1
    for _ in range(ITERATIONS):
        bounds = [(a + b) / 2 for a, b in zip(codes, codes[1:])]
        sums, weights, code = [0.0] * LEVELS, [0] * LEVELS, 0
        for centre, n in zip(centres, counts):
            while code < LEVELS - 1 and centre > bounds[code]:
                code += 1
            sums[code] += centre * n
            weights[code] += n
        codes = [s / w if w else c for s, w, c in zip(sums, weights, codes)]
    return codes


def nearest(codes):
    """A function from a number to its nearest code's index."""
    bounds = [(a + b) / 2 for a, b in zip(codes, codes[1:])]

    def index(x):
        lo, hi = 0, len(bounds)
        while lo < hi:
            mid = (lo + hi) // 2
            if x > bounds[mid]:
                lo = mid + 1
            else:
                hi = mid
        return lo

    return index


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    magic, (count, dims, flags), names, rows = read_rows(args.source.read_bytes())
    if dims % 2:
        sys.exit("dimensions must be even")
    scales = [rms(row) or 1.0 for row in rows]
    normalized = [[x / s for x in row] for row, s in zip(rows, scales)]
    codes = fit_codebook(normalized)
    index = nearest(codes)
    packed = bytearray()
    cosines = 0.0
    for row in normalized:
        picked = [index(x) for x in row]
        cosines += cosine(row, [codes[i] for i in picked])
        for low, high in zip(picked[0::2], picked[1::2]):
            packed.append(low | (high << 4))
    with open(args.out, "wb") as out:
        if magic == b"TSTV1\n":
            out.write(b"TSTV2\n" + struct.pack("<IHB", count, dims, flags))
        else:
            out.write(b"TSWV2\n" + struct.pack("<IH", count, dims))
        for name in names:
            out.write(name + b"\n")
        out.write(struct.pack(f"<{LEVELS}f", *codes))
        if magic == b"TSTV1\n":
            out.write(struct.pack(f"<{count}f", *scales))
        out.write(bytes(packed))
    print(f"{count} rows × {dims}: mean cosine with the input {cosines / count:.4f}; "
          f"{args.source.stat().st_size:,} → {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
