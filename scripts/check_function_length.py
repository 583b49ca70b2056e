#!/usr/bin/env python3
"""Fails when a function outside device code is longer than 100 lines.

Counts, in the C++ sources of support/, kernels/, solvers/, fem/, bench/ and tests/ (.cpp, .hpp; the
device code of .cu, .cuh and .cl files is left out), the lines of each function body: a brace
block opened at namespace or class level after a parameter list, from the line that opens it to
the one that closes it. Comments and string literals (raw ones too) are blanked first, so their
braces do not count. LONG_ALLOWED names the functions still waiting to be split, each at most
the lines it has today. Prints each offence as file:line: and exits 1 when there is one.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIMIT = 100
TOPS = ("support", "kernels", "solvers", "fem", "bench", "tests")
# file -> the most lines its longest function may have, until it is split.
LONG_ALLOWED: dict[str, int] = {}

BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
RAW_STRING = re.compile(r'R"([^(\s]*)\((.*?)\)\1"', re.S)
STRING_OR_LINE_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|//[^\n]*')
SCOPE = re.compile(r'\b(namespace|class|struct|union|enum)\b[^()]*$|extern\s*""$')
FUNCTION_HEAD = re.compile(r"\)\s*(const|override|final|noexcept|mutable|->[^;{]*|:[^;{]*|\s)*$")


def blank(match):
    return re.sub(r"[^\n]", " ", match.group(0)) if "\n" in match.group(0) else '""'


def functions(text):
    """(first line, lines) of each function body in `text`."""
    text = BLOCK_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = RAW_STRING.sub(lambda m: '""' + "\n" * m.group(0).count("\n"), text)
    text = STRING_OR_LINE_COMMENT.sub(lambda m: '""' if m.group(0)[0] in "\"'" else "", text)
    stack, found, head = [], [], ""
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("#"):
            continue
        for ch in line:
            if ch == "{":
                h = head.strip()
                at_scope_level = all(kind == "scope" for kind, _ in stack)
                if SCOPE.search(h):
                    kind = "scope"
                elif at_scope_level and FUNCTION_HEAD.search(h) and not h.endswith("="):
                    kind = "function"
                else:
                    kind = "block"
                stack.append((kind, number))
                head = ""
            elif ch == "}":
                if stack:
                    kind, start = stack.pop()
                    if kind == "function":
                        found.append((start, number - start + 1))
                head = ""
            elif ch == ";":
                head = ""
            else:
                head += ch
        head += " "
    return found


def main():
    offences = []
    for top in TOPS:
        for pattern in ("*.cpp", "*.hpp", "*.h"):
            for file in sorted((ROOT / top).rglob(pattern)):
                relative = file.relative_to(ROOT).as_posix()
                limit = max(LIMIT, LONG_ALLOWED.get(relative, 0))
                for start, lines in functions(file.read_text(errors="replace")):
                    if lines > limit:
                        offences.append(f"{relative}:{start}: a function of {lines} lines (at most {limit}): "
                                        "split it into named steps")
    for offence in offences:
        print(offence)
    if offences:
        print(f"check_function_length: {len(offences)} function(s) too long")
        return 1
    print(f"check_function_length: no function outside device code is longer than {LIMIT} lines "
          f"(but the {len(LONG_ALLOWED)} named in LONG_ALLOWED)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
