#!/usr/bin/env python3
"""A naive R0 tool behind the process protocol (schema/r0-adapter-2.schema.json, SPEC R-5, R-8).

It writes, never rolls back and keeps no journal: `deskcheck r0 --adapter-cmd "python3
tools/r0-adapter-naive.py"` must score 0 % and exit 1. It is also the smallest example of an
adapter: one JSON request per line on stdin, one JSON answer per line on stdout, flushed, each
answer carrying its request's "id".
"""
import json
import os
import shutil
import sys


def act(root, step):
    op = step["op"]
    path = os.path.join(root, step["path"])
    if op == "file.write":
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(step["bytes"].encode("utf-8"))
    elif op == "file.mkdir":
        os.makedirs(path, exist_ok=True)
    elif op == "file.move":
        to = os.path.join(root, step["to"])
        os.makedirs(os.path.dirname(to), exist_ok=True)
        shutil.move(path, to)
    else:
        raise ValueError("unsupported op " + op)


def main():
    last = []
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "apply":
            executed = []
            fail_at = req.get("fail_at")
            finished = True
            for i, step in enumerate(req["steps"], start=1):
                executed.append(i)
                try:
                    act(req["root"], step)
                except (OSError, ValueError):
                    finished = False
                    break
                if fail_at is not None and i == fail_at:
                    finished = False
                    break
            last = executed
            ans = {"task": "naive", "executed": executed, "rolled_back": [], "finished": finished}
        elif req["op"] == "undo":
            ans = {"task": "naive", "executed": last, "rolled_back": []}
        elif req["op"] == "journal":
            ans = {"lines": None}
        else:
            ans = {"error": "unknown op " + str(req.get("op"))}
        ans = {"id": req.get("id"), **ans}  # every answer echoes its request's id
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
