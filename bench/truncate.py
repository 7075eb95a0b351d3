"""A plain Python implementation of the truncation toolshape does, for bench/compare.sh:
what a developer would write with `json` and `tiktoken` (o200k_base) to fit a tool result
into a token budget. No envelope, no redaction, no continuation: the bare work.

  records: python bench/truncate.py records FILE BUDGET SORT_KEY FIELD[=RENAME]...
           load a JSON array, sort by SORT_KEY descending, keep the fields, then keep
           records while the JSON of the kept list fits BUDGET tokens
  text:    python bench/truncate.py text FILE BUDGET
           keep whole lines from the start while they fit BUDGET tokens

Prints the kept result and, on standard error, how many records or lines were kept.
"""

from __future__ import annotations

import json
import sys

import tiktoken


def main() -> int:
    mode, path, budget = sys.argv[1], sys.argv[2], int(sys.argv[3])
    enc = tiktoken.get_encoding("o200k_base")
    if mode == "records":
        key, fields = sys.argv[4], sys.argv[5:]
        with open(path, encoding="utf-8") as f:
            records = json.load(f)
        records.sort(key=lambda r: r.get(key) is None or r.get(key), reverse=True)
        renames = [(f.split("=", 1)[0], f.split("=", 1)[-1]) for f in fields]
        kept: list[dict] = []
        used = 2  # the brackets of the list
        for record in records:
            projected = {new: record.get(old) for old, new in renames}
            cost = len(enc.encode_ordinary(json.dumps(projected, ensure_ascii=False))) + 1
            if used + cost > budget:
                break
            kept.append(projected)
            used += cost
        print(json.dumps(kept, ensure_ascii=False))
        print(f"kept {len(kept)} of {len(records)} records", file=sys.stderr)
    elif mode == "text":
        with open(path, encoding="utf-8") as f:
            text = f.read()
        out: list[str] = []
        used = 0
        for line in text.splitlines(keepends=True):
            cost = len(enc.encode_ordinary(line))
            if used + cost > budget:
                break
            out.append(line)
            used += cost
        sys.stdout.write("".join(out))
        print(f"kept {len(out)} lines", file=sys.stderr)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
