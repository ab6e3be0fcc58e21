#!/usr/bin/python3
# Functions longer than a bound (default 70 lines, braces included), found with libclang (Debian
# python3-clang-14). Default: every .cpp under model/ sim/ checks/ harness/ cli/ host/ fuzz/ of the
# checkout; or the files given. Prints one line per offender, "LINES FILE:LINE FUNCTION", longest
# first; exit 0 none, 1 some, 2 bad usage or libclang missing.
import argparse
import concurrent.futures
import glob
import os
import sys

try:
    import clang.cindex as ci
except ImportError as e:
    sys.stderr.write(f"function_lengths: {e}; install the Debian package python3-clang-14\n")
    sys.exit(2)

FOLDERS = ["model", "sim", "checks", "harness", "cli", "host", "fuzz"]
KINDS = {ci.CursorKind.FUNCTION_DECL, ci.CursorKind.CXX_METHOD, ci.CursorKind.CONSTRUCTOR, ci.CursorKind.DESTRUCTOR,
         ci.CursorKind.FUNCTION_TEMPLATE}
SCOPES = {ci.CursorKind.NAMESPACE, ci.CursorKind.CLASS_DECL, ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNEXPOSED_DECL,
          ci.CursorKind.CLASS_TEMPLATE}


def long_functions(path, root, bound):
    index = ci.Index.create()
    tu = index.parse(path, args=["-std=c++20", "-x", "c++", "-I" + root])
    out = []

    def walk(cursor):
        for child in cursor.get_children():
            try:
                kind = child.kind
            except ValueError:  # a cursor kind this libclang's Python binding does not know
                continue
            if child.location.file is None or os.path.realpath(child.location.file.name) != os.path.realpath(path):
                continue
            if kind in KINDS and child.is_definition():
                lines = child.extent.end.line - child.extent.start.line + 1
                if lines > bound:
                    out.append((lines, path, child.extent.start.line, child.spelling))
            elif kind in SCOPES:
                walk(child)

    walk(tu.cursor)
    return out


def main():
    ap = argparse.ArgumentParser(description="functions longer than --max lines (libclang)")
    ap.add_argument("files", nargs="*", help="C++ files (default: every .cpp of " + " ".join(FOLDERS) + ")")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), help="the checkout (default: this one)")
    ap.add_argument("--max", type=int, default=70, help="the bound in lines (default 70)")
    a = ap.parse_args()
    if a.max < 1:
        ap.error("--max must be at least 1")
    files = a.files or sorted(f for d in FOLDERS for f in glob.glob(os.path.join(a.root, d, "**", "*.cpp"), recursive=True))
    for f in files:
        if not os.path.isfile(f):
            ap.error(f"{f}: no such file")
    found = []
    # One file per process, on every core: the parse of the headers is most of the time.
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for part in pool.map(long_functions, files, [a.root] * len(files), [a.max] * len(files)):
            found += part
    for lines, path, line, name in sorted(found, reverse=True):
        print(f"{lines} {os.path.relpath(path, a.root)}:{line} {name}")
    print(f"{len(found)} function(s) over {a.max} lines in {len(files)} file(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
