#!/usr/bin/env python3
"""Print, as one bash script, the shell commands a document marks as tested.

A fenced block whose opening line follows a line `<!-- tested -->` (blank
lines between are allowed) is taken verbatim, in document order. With
--dist-run CMD, `dist-run` in those commands runs as CMD (lit's %dist-run,
which adds a timeout). Exits 1 if the document has no marked block, so a
test built on it cannot pass vacuously.

  extract-commands.py docs/tutorial.md --dist-run "dist-run --timeout 120"
"""
import argparse
import sys


def blocks(lines):
    pending = False
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if s == "<!-- tested -->":
            pending = True
        elif pending and s.startswith("```"):
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                sys.exit("extract-commands: unterminated block")
            yield body
            pending = False
        elif s:
            pending = False
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("doc")
    ap.add_argument("--dist-run", default=None)
    args = ap.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        lines = f.read().splitlines()
    found = list(blocks(lines))
    if not found:
        sys.exit("extract-commands: no <!-- tested --> block in " + args.doc)
    print("set -euo pipefail")
    if args.dist_run:
        print('dist-run() { command %s "$@"; }' % args.dist_run)
    for n, body in enumerate(found, 1):
        print("echo '# tested block %d'" % n)
        print("\n".join(body))


if __name__ == "__main__":
    main()
