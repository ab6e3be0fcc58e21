#!/usr/bin/env bash
# tools/mutate-model on a small fixture tree: the mutants are enumerated, the switch is inserted in
# the copy (never in the source), the copy builds once, a mutant the check judges is killed and the
# planted mutants of a function whose result nobody checks are reported as survivors.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/fixture" "$work/src"
fail() { echo "FAIL: $*" >&2; exit 1; }

set +e
/usr/bin/python3 "$repo/tools/mutate-model" --root "$work/src" --work "$work/mm" --target fixture_check \
    --binary fixture_check --files lib.cpp --test-cmd '"$DESKCHECK_BINARY"' --jobs 2 --json > "$work/report.json" 2> "$work/log"
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$work/log" >&2; fail "expected exit 1 (unexplained survivors), got $rc"; }
grep -q "::dc_mutant(" "$work/mm/tree/lib.cpp" || fail "no switch in the mutated copy"
! grep -q "dc_mutant" "$work/src/lib.cpp" || fail "the source tree got a switch"
/usr/bin/python3 - "$work/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def fail(msg):
    print("FAIL:", msg, file=sys.stderr); sys.exit(1)
ops = {s["operator"] for s in r["survivors"]} | set(r["per_operator"])
for op in ("relational", "boundary", "logical", "negated_condition", "return_value", "constant", "removed_statement"):
    if op not in r["per_operator"]:
        fail(f"operator {op} made no mutant on the fixture: {sorted(r['per_operator'])}")
if r["mutants"] < 20:
    fail(f"only {r['mutants']} mutants")
killed = {k["key"] for k in r["killed"]}
if not any(k.startswith("lib.cpp::clamp_to::relational::v < lo=>v >= lo") for k in killed):
    fail(f"the relational mutant of clamp_to was not killed: {sorted(killed)}")
# The condition's negation and the comparison share one range: both switches must be written
# (one nested in the other), or the negation could only ever be "not reached".
if not any(k.startswith("lib.cpp::clamp_to::negated_condition::v < lo") for k in killed):
    fail(f"the negated condition of clamp_to (same range as its comparison) was not killed: {sorted(killed)}")
if not any(k.startswith("lib.cpp::verdict_of::return_value") for k in killed):
    fail("no return_value mutant of verdict_of was killed")
# A mutant only the second round judges: killed there, and reported so.
rare = [k for k in r["killed"] if k["key"].startswith("lib.cpp::rarely_checked::")]
if not rare or any(k["round"] != 2 for k in rare):
    fail(f"the mutants of rarely_checked were not all killed in round 2: {rare}")
if r["killed_in_round_2"] != len(rare):
    fail(f"killed_in_round_2 is {r['killed_in_round_2']}, expected {len(rare)}")
planted = [s for s in r["survivors"] if s["function"] == "planted_survivor"]
if not planted or any(s["status"] != "survived" for s in planted):
    fail(f"the planted mutants were not all reported survived: {planted}")
others = [s for s in r["survivors"] if s["function"] != "planted_survivor" and s["status"] == "survived"]
print(f"ok: {r['mutants']} mutants, {r['counts']}, {len(planted)} planted survivors, "
      f"{len(others)} other survivors")
PY
