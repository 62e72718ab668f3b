#!/usr/bin/env python3
"""Build the seed corpus of dist-fuzz.

Every .mlir file under examples/ and test/ of the source tree (the fuzz
regression inputs in test/fuzz/regressions included) is split at its
"// -----" lines (the -split-input-file separator) and each piece is written
to OUT as one seed, with whole-line comments dropped (RUN / CHECK /
expected-error lines are noise to the fuzzer). Empty pieces are skipped and
identical pieces are written once.

    test/fuzz/make_corpus.py --root . --out build-fuzz/fuzz/seeds
"""

import argparse
import hashlib
import os
import re
import sys

SEPARATOR = re.compile(r"^\s*// -----")
COMMENT = re.compile(r"^\s*//")


def source_files(root):
    for top in ("examples", "test"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".mlir"):
                    yield os.path.join(dirpath, name)


def pieces(path):
    """(text, negative) of every piece of `path`: whole-line comments
    dropped; `negative` when the piece expects a diagnostic."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines(keepends=True)
    chunk, negative = [], False
    for line in lines:
        if SEPARATOR.match(line):
            yield "".join(chunk), negative
            chunk, negative = [], False
        elif COMMENT.match(line):
            negative = negative or "expected-error" in line
        else:
            chunk.append(line)
    yield "".join(chunk), negative


def split_sources_tagged(root):
    """(name, text, negative) of every non-empty piece, in a stable order."""
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", rel[:-len(".mlir")])
        for i, (text, negative) in enumerate(pieces(path)):
            text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
            if text.strip():
                yield "%s.%d" % (stem, i), text + "\n", negative


def split_sources(root):
    """(name, text) of every non-empty piece, in a stable order."""
    for name, text, _ in split_sources_tagged(root):
        yield name, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."),
                    help="source tree (default: this file's ../..)")
    ap.add_argument("--out", required=True, help="corpus directory to fill")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    seen = set()
    count = 0
    for name, text in split_sources(args.root):
        digest = hashlib.sha1(text.encode()).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        with open(os.path.join(args.out, name + ".mlir"), "w", encoding="utf-8") as f:
            f.write(text)
        count += 1
    print("make_corpus: %d seeds in %s" % (count, args.out))
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
