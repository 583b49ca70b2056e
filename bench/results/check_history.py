#!/usr/bin/env python3
"""Checks that the split of the old lab notebook (bench/RESULTS.md at ebe7c8a) into
bench/results/*.md lost nothing, and that the numbers on the current page come from the record.

  python3 bench/results/check_history.py            # the old notebook from git (commit ebe7c8a)
  python3 bench/results/check_history.py --old FILE # or from a file

1. Reassembly: the blocks between `<!-- verbatim: bench/RESULTS.md@ebe7c8a lines A-B -->` and
   `<!-- end verbatim -->` in the history files cover lines 1..N once each and, put in order, are
   the old file byte for byte.
2. Union: every non-empty line of the old file is a line of some new file (bench/RESULTS.md or
   bench/results/*.md); lines with a digit are counted apart.
3. Numbers on the current page: every number of bench/RESULTS.md (digits with their decimal
   point and thousands commas) occurs in the old notebook or in bench/studies/README.md, or
   in a file given with --extra (the shared ANCHORS.md the page quotes); the rest are listed
   (dates are skipped; commits, UTC times and command arguments show up there).
Exit status 1 if check 1 or 2 fails; check 3 only reports.
"""
import argparse
import glob
import os
import re
import signal
import subprocess
import sys

COMMIT = "ebe7c8a"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MARK = re.compile(r"^<!-- verbatim: bench/RESULTS\.md@(\w+) lines (\d+)-(\d+) -->$")
END = "<!-- end verbatim -->"


def old_text(path):
    if path:
        with open(path, encoding="utf-8") as f:
            return f.read()
    return subprocess.run(["git", "show", f"{COMMIT}:bench/RESULTS.md"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


def blocks(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if m:
            start, end = int(m.group(2)), int(m.group(3))
            j = lines.index(END, i + 1)
            yield start, end, lines[i + 1:j], path
            i = j
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", help="the old notebook (default: git show %s:bench/RESULTS.md)" % COMMIT)
    ap.add_argument("--extra", action="append", default=[],
                    help="more files the page quotes (e.g. the shared ANCHORS.md), for check 3")
    args = ap.parse_args()
    old = old_text(args.old).split("\n")
    if old and old[-1] == "":
        old.pop()
    history = sorted(glob.glob(os.path.join(HERE, "*.md")))
    page = os.path.join(ROOT, "bench", "RESULTS.md")
    ok = True

    # 1. reassembly
    found = sorted(b for p in history for b in blocks(p))
    expect, rebuilt = 1, []
    for start, end, body, path in found:
        if start != expect or len(body) != end - start + 1:
            print(f"reassembly: {os.path.basename(path)} lines {start}-{end}: expected to start at "
                  f"{expect} with {end - start + 1} lines, has {len(body)}")
            ok = False
        rebuilt.extend(body)
        expect = end + 1
    same = rebuilt == old
    print(f"1. reassembly: {len(found)} verbatim blocks in {len(history)} files, {len(rebuilt)} lines; "
          f"old file {len(old)} lines; identical: {same}")
    ok &= same

    # 2. union of lines
    union = set()
    for p in history + [page]:
        with open(p, encoding="utf-8") as f:
            union.update(f.read().split("\n"))
    nonempty = [l for l in old if l.strip()]
    numeric = [l for l in nonempty if re.search(r"\d", l)]
    missing = [l for l in nonempty if l not in union]
    print(f"2. union: {len(nonempty)} non-empty lines of the old file ({len(numeric)} with a digit), "
          f"missing from the new files: {len(missing)}")
    for l in missing[:20]:
        print("   missing:", l[:120])
    ok &= not missing

    # 3. the current page's numbers
    sources = "\n".join(old)
    studies = os.path.join(ROOT, "bench", "studies", "README.md")
    for extra in [studies] + args.extra:
        if os.path.exists(extra):
            with open(extra, encoding="utf-8") as f:
                sources += "\n" + f.read()
    number = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
    known = {t.rstrip(",") for t in number.findall(sources)}
    unknown = {}
    with open(page, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if "](" in line and "results/" in line:  # links to the history files
                line = re.sub(r"\]\([^)]*\)", "]", line)
            for tok in number.findall(line):
                tok = tok.rstrip(",")
                if tok not in known and not re.fullmatch(r"\d{4}-\d\d-\d\d", tok):
                    unknown.setdefault(tok, n)
    print(f"3. numbers on bench/RESULTS.md not found in the old notebook or bench/studies/README.md: "
          f"{len(unknown)}")
    for tok, n in sorted(unknown.items(), key=lambda kv: kv[1]):
        print(f"   line {n}: {tok}")
    return 0 if ok else 1


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
    sys.exit(main())
