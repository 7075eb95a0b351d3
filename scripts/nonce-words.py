#!/usr/bin/env python3
"""Build `crates/util/src/nonce-words.txt`, the 8,192 words a delimiter nonce is made of.

Usage: python3 scripts/nonce-words.py [--dict FILE] [--out FILE]

A nonce is five words drawn from this list (13 random bits each, 65 in all). Each word is
one token when written after a space in every encoding toolshape counts with, so a nonce
costs five tokens where 20 random digits cost seven, and every nonce costs the same (which
lets a page be fitted without knowing the nonce).

The words are:
- English words of three to eight lowercase letters from the Debian package `wamerican`
  (SCOWL word lists, permissive licence; `/usr/share/dict/american-english`, or `--dict`;
  its notices are kept in `crates/util/src/nonce-words.COPYRIGHT`, copied from the package's
  `/usr/share/doc/wamerican/copyright`);
- minus the English list of the npm package `naughty-words` 1.2.0 (CC-BY-4.0), fetched with
  `npm pack` into a temporary folder, and minus the few words in `AVOID` below (words that
  read as an instruction to a model, name a role or a part of the envelope, or belong to
  a family of words of violence, crime or abuse: `AVOID_STARTS`), so that no nonce reads
  as anything but a random label;
- kept only where `cargo run --release -p toolshape-tokens --example single_token_words`
  says they are one token in every encoding;
- ordered by frequency, as tool search's word-vector table lists its words
  (`crates/search/data/word-vectors.bin`), and cut to the 8,192 most frequent (common words
  are easy to read back and to compare); the file lists them alphabetically.

Deterministic: the same inputs give the same file.
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

ROOT = Path(__file__).resolve().parent.parent
WORDS = 8192
WORD = re.compile(r"[a-z]{3,8}")
NAUGHTY = "naughty-words@1.2.0"
# Words a model could read as something other than a label: instructions, roles, the
# envelope's own keys and values, and violence.
AVOID = {
    "admin", "agent", "assistant", "bomb", "data", "dead", "death", "delete", "disregard",
    "empty", "error", "execute", "false", "forget", "ignore", "kill", "killed", "killing",
    "murder", "next", "none", "nonce", "null", "obey", "omitted", "override", "partial",
    "password", "prompt", "result", "rules", "secret", "status", "suicide", "summary",
    "system", "terror", "token", "tool", "true", "user", "weapon",
}
# Word families of violence, crime and abuse, by their start (`murder`, `murdered`, …).
AVOID_STARTS = re.compile(
    r"(abus|assault|bomb|breast|cocaine|corpse|dead|die[ds]?$|drug|explod|genocid|gun|handgun|hate|hell$"
    r"|heroin$|hostage|jihad|kill|massacr|murder|naked|racis|rape|sex|shoot|shotgun|slave|stab(bed|bing|s)?$"
    r"|suicid|tortur|weapon)"
)


def naughty_words() -> set[str]:
    """The English list of `naughty-words`, lowercased, with each phrase's words too."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", NAUGHTY, "--silent"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        tarball = next(Path(tmp).glob("naughty-words-*.tgz"))
        with tarfile.open(tarball) as tar:
            member = tar.extractfile("package/en.json")
            assert member is not None
            phrases = json.load(member)
    out = set()
    for phrase in phrases:
        out.add(phrase.lower())
        out.update(phrase.lower().split())
    return out


def frequency_order() -> dict[str, int]:
    """Each word of the word-vector table with its rank (the table lists words by frequency)."""
    blob = (ROOT / "crates/search/data/word-vectors.bin").read_bytes()
    assert blob[:6] == b"TSWV2\n"
    (count,) = struct.unpack("<I", blob[6:10])
    words = blob[12:].split(b"\n", count)[:count]
    return {w.decode(): i for i, w in enumerate(words)}


def single_tokens(words: list[str]) -> set[str]:
    """The words that are one token after a space in every encoding."""
    run = subprocess.run(
        ["cargo", "run", "--release", "-q", "-p", "toolshape-tokens", "--example", "single_token_words"],
        cwd=ROOT,
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return set(run.stdout.split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dict", type=Path, default=Path("/usr/share/dict/american-english"))
    parser.add_argument("--out", type=Path, default=ROOT / "crates/util/src/nonce-words.txt")
    args = parser.parse_args()
    if not args.dict.exists():
        print(f"{args.dict} is missing: install the Debian package wamerican, or pass --dict", file=sys.stderr)
        return 1
    avoid = naughty_words() | AVOID
    words = args.dict.read_text().split()
    candidates = sorted({w for w in words if WORD.fullmatch(w) and w not in avoid and not AVOID_STARTS.match(w)})
    kept = single_tokens(candidates)
    rank = frequency_order()
    by_frequency = sorted(kept, key=lambda w: (rank.get(w, len(rank)), w))
    if len(by_frequency) < WORDS:
        print(f"only {len(by_frequency)} words qualify; {WORDS} are needed", file=sys.stderr)
        return 1
    chosen = sorted(by_frequency[:WORDS])
    args.out.write_text("\n".join(chosen) + "\n")
    print(f"{len(candidates)} candidates, {len(kept)} single tokens, wrote {WORDS} to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
