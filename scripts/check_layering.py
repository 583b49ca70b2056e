#!/usr/bin/env python3
"""Fails when a source file includes across the layering table of DESIGN.md.

    support/   nothing of ours (stopwatch, statistics, CSV tables, atomic files)
    kernels/   support
    solvers/   kernels, support
    fem/       solvers, kernels, support (not fem/app)
    fem/app/   everything
    bench/     everything but fem/app
    tests/     everything

The generated build configuration (fem/config.hpp: which optional parts this build has) is
no layer's code and may be included anywhere. Prints each offending include as
file:line: and exits 1 when there is one.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ("*.hpp", "*.cpp", "*.cu", "*.h")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANYWHERE = {"fem/config.hpp"}

# Layer of a path (most specific prefix first) and the layers each may include.
LAYERS = [("fem/app/", "app"), ("fem/", "fem"), ("solvers/", "solvers"), ("kernels/", "kernels"),
          ("bench/", "bench"), ("tests/", "tests"), ("support/", "support")]
MAY_USE = {
    "support": {"support"},
    "kernels": {"kernels", "support"},
    "solvers": {"solvers", "kernels", "support"},
    "fem": {"fem", "solvers", "kernels", "support"},
    "app": {"app", "fem", "solvers", "kernels", "bench", "support"},
    "bench": {"bench", "fem", "solvers", "kernels", "support"},
    "tests": {"tests", "app", "fem", "solvers", "kernels", "bench", "support"},
}


def layer_of(path):
    for prefix, layer in LAYERS:
        if path.startswith(prefix):
            return layer
    return None


def main():
    offences = []
    for top in ("support", "kernels", "solvers", "fem", "bench", "tests"):
        for pattern in SOURCES:
            for file in sorted((ROOT / top).rglob(pattern)):
                relative = file.relative_to(ROOT).as_posix()
                source_layer = layer_of(relative)
                for number, line in enumerate(file.read_text(errors="replace").splitlines(), 1):
                    match = INCLUDE.match(line)
                    if not match or match.group(1) in ANYWHERE:
                        continue
                    target_layer = layer_of(match.group(1))
                    if target_layer and target_layer not in MAY_USE[source_layer]:
                        offences.append(f"{relative}:{number}: {source_layer} may not include "
                                        f"{match.group(1)} ({target_layer})")
    for offence in offences:
        print(offence)
    if offences:
        print(f"check_layering: {len(offences)} include(s) cross the layering table (DESIGN.md)")
        return 1
    print("check_layering: every include follows the layering table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
