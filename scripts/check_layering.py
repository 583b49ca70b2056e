#!/usr/bin/env python3
"""Fails when a source file includes across the layering table of DESIGN.md, or puts a build
switch or a back-end's code where the design keeps them out.

    support/   nothing of ours (stopwatch, statistics, CSV tables, atomic files)
    kernels/   support
    solvers/   kernels, support
    fem/       solvers, kernels, support (not fem/app)
    fem/app/   everything
    bench/     everything but fem/app
    tests/     everything

The generated build configuration (fem/config.hpp: which optional parts this build has) is
no layer's code and may be included anywhere.

Device kernels are declared per algorithm (Ginkgo's pattern): a solver family with device code
declares them in solvers/<family>/<family>_kernels.hpp, which includes only kernels/ and
support/; a back-end folder (kernels/cpu, kernels/cuda, kernels/opencl) implements them and so
may include that header, and nothing else of solvers/.

Outside the composition root (fem/app/), solvers/ and fem/ include no back-end folder (they reach
the back-ends through the declared kernel headers and the registries) and test no build switch
with `#if FEM_WITH_*`, but in the files of SWITCH_BUDGET, each at most the lines it has. In
solvers/, a build switch appears as a value (`if constexpr (FEM_WITH_CUDA)`) only where an
implementation is picked: the solver tables (solvers/registry.cpp, solvers/eigen_registry.cpp) and
the family kernel registries (solvers/<family>/<family>_kernels.cpp).

One header name per concept: no two headers share a file name.

Prints each offence as file:line: and exits 1 when there is one.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ("*.hpp", "*.cpp", "*.cu", "*.h")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANYWHERE = {"fem/config.hpp"}
BACKEND_FOLDERS = ("kernels/cpu/", "kernels/cuda/", "kernels/opencl/")
FAMILY_KERNELS = re.compile(r"^solvers/([a-z_]+)/\1_kernels\.hpp$")
FAMILY_PICK = re.compile(r"^solvers/([a-z_]+)/\1_kernels\.cpp$")
SWITCH_TEST = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*\bFEM_WITH_")
SWITCH_NAME = re.compile(r"\bFEM_WITH_[A-Z]+\b")
STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|//.*$')

# The `#if FEM_WITH_*` lines allowed in solvers/ and fem/ outside fem/app/, per file, until they
# go: the mesh stage's Gmsh switch. A part only some builds have lives in its own translation unit
# that CMake picks (solvers/optional_parts.hpp, fem/mesh/gmsh_version.hpp).
SWITCH_BUDGET = {
    "fem/pipeline/make_mesh.cpp": 2,
}
# Includes of a back-end folder allowed in solvers/ and fem/ outside fem/app/, until they go.
BACKEND_INCLUDE_ALLOWED = set()

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


def include_offence(relative, source_layer, target):
    """Why `relative` may not include `target`, or None."""
    target_layer = layer_of(target)
    if target_layer is None:
        return None
    if relative.startswith(BACKEND_FOLDERS) and FAMILY_KERNELS.match(target):
        return None  # a back-end implementing a family's declared kernels
    if target_layer not in MAY_USE[source_layer]:
        return f"{source_layer} may not include {target} ({target_layer})"
    if FAMILY_KERNELS.match(relative) and target_layer not in ("kernels", "support"):
        return f"a family's kernel declarations include only kernels/ and support/, not {target}"
    if (source_layer in ("solvers", "fem") and target.startswith(BACKEND_FOLDERS)
            and (relative, target) not in BACKEND_INCLUDE_ALLOWED):
        return (f"{target} is a back-end's folder: reach it through a declared kernel header "
                f"(solvers/<family>/<family>_kernels.hpp) or a registry")
    return None


def switch_offences(relative, source_layer, lines):
    """The build switches of `relative` outside the places the design allows them."""
    if source_layer not in ("solvers", "fem"):
        return []
    offences = []
    tests = [number for number, line in enumerate(lines, 1) if SWITCH_TEST.match(line)]
    budget = SWITCH_BUDGET.get(relative, 0)
    if len(tests) > budget:
        offences += [f"{relative}:{number}: `#if FEM_WITH_*` outside the composition root (fem/app/); "
                     f"this file may have {budget}" for number in tests]
    picks = relative in ("solvers/registry.cpp", "solvers/eigen_registry.cpp") or FAMILY_PICK.match(relative)
    if source_layer == "solvers" and not picks:
        for number, line in enumerate(lines, 1):
            if number not in tests and SWITCH_NAME.search(STRING_OR_COMMENT.sub("", line)):
                offences.append(f"{relative}:{number}: a build switch in solvers/ outside the solver table "
                                f"and the family kernel registries (solvers/<family>/<family>_kernels.cpp)")
    return offences


def repeated_header_names():
    """Headers whose file name another header has too."""
    by_name = {}
    for top in ("support", "kernels", "solvers", "fem", "bench", "tests"):
        for pattern in ("*.hpp", "*.h", "*.cuh"):
            for file in (ROOT / top).rglob(pattern):
                by_name.setdefault(file.name, []).append(file.relative_to(ROOT).as_posix())
    return [f"{path}:1: the header name {name} is used by {len(paths)} headers ({', '.join(sorted(paths))})"
            for name, paths in sorted(by_name.items()) if len(paths) > 1 for path in sorted(paths)]


def main():
    offences = repeated_header_names()
    for top in ("support", "kernels", "solvers", "fem", "bench", "tests"):
        for pattern in SOURCES:
            for file in sorted((ROOT / top).rglob(pattern)):
                relative = file.relative_to(ROOT).as_posix()
                source_layer = layer_of(relative)
                lines = file.read_text(errors="replace").splitlines()
                for number, line in enumerate(lines, 1):
                    match = INCLUDE.match(line)
                    if not match or match.group(1) in ANYWHERE:
                        continue
                    why = include_offence(relative, source_layer, match.group(1))
                    if why:
                        offences.append(f"{relative}:{number}: {why}")
                offences += switch_offences(relative, source_layer, lines)
    for offence in offences:
        print(offence)
    if offences:
        print(f"check_layering: {len(offences)} offence(s) against the layering rules (DESIGN.md)")
        return 1
    print("check_layering: every include and build switch follows the layering rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
