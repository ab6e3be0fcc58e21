#!/usr/bin/python3
"""Every field of every report type the tool produces has a row in the claim table.

Reads model/'s headers with libclang (Debian python3-clang-14), lists the data members of the
report types the table names (`deskcheck claims --json`), and compares: a field without a row, or a
row without a field, is an error (exit 1). `--pretend-field Type.name` adds a field that has no row,
so that the test of this test can show it fails.

usage: claim_fields.py --deskcheck BIN [--root DIR] [--pretend-field Type.name]...
"""
import argparse
import json
import os
import subprocess
import sys

import clang.cindex as ci

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutate_model.schemata import load_libclang  # noqa: E402  (one way to find libclang)


def report_fields(root: str, types: set) -> dict:
    """{type: [field, ...]} for the structs of namespace deskcheck named in `types`, and every struct
    whose name ends in Report (a new report type needs its rows), from model/."""
    load_libclang()
    index = ci.Index.create()
    source = "#include \"model/tool.h\"\n#include \"model/write.h\"\n#include \"model/undo.h\"\n"
    tu = index.parse("claims.cpp", args=["-x", "c++", "-std=c++20", "-I" + root],
                     unsaved_files=[("claims.cpp", source)])
    errors = [d.spelling for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        sys.exit("claim_fields: model/ headers do not parse: " + "; ".join(errors[:3]))
    out = {}

    def walk(node, namespace):
        for c in node.get_children():
            if c.kind == ci.CursorKind.NAMESPACE:
                walk(c, namespace + [c.spelling])
            elif c.kind in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.CLASS_DECL) and c.is_definition() \
                    and namespace == ["deskcheck"] and (c.spelling in types or c.spelling.endswith("Report")):
                fields = [f.spelling for f in c.get_children() if f.kind == ci.CursorKind.FIELD_DECL]
                out.setdefault(c.spelling, fields)

    walk(tu.cursor, [])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deskcheck", required=True, help="the built deskcheck binary")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--pretend-field", action="append", default=[], metavar="Type.name")
    a = ap.parse_args()
    table = json.loads(subprocess.run([a.deskcheck, "claims", "--json"], check=True, capture_output=True, text=True).stdout)
    rows = {(r["type"], r["field"]) for r in table["claims"]}
    types = {t for t, _ in rows}
    fields = report_fields(a.root, types)
    for p in a.pretend_field:
        t, _, f = p.partition(".")
        fields.setdefault(t, []).append(f)
    problems = []
    for t in sorted(types):
        if t not in fields:
            problems.append(f"{t}: the table has rows for it, but model/ defines no such report type")
    for t, fs in sorted(fields.items()):
        for f in fs:
            if (t, f) not in rows:
                problems.append(f"{t}.{f}: a field of a report type with no row in the claim table (checks/claim_table.cpp)")
    for t, f in sorted(rows):
        if t in fields and f not in fields[t]:
            problems.append(f"{t}.{f}: a row of the claim table for a field model/ does not have")
    count = sum(len(v) for v in fields.values())
    if problems:
        print("\n".join(problems))
        print(f"claim table: {len(problems)} problem(s) over {count} fields of {len(fields)} report types")
        return 1
    print(f"claim table: every one of {count} fields of {len(fields)} report types has its row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
