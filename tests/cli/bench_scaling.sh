# bench --scaling: four dimensions at 1x, 4x, 16x, each with a time and a memory exponent; the
# exit status is 1 exactly when a row says it fails (an exponent above 1.2), and a row fails
# exactly when one of its exponents is above 1.2.
source "$(dirname "$0")/lib.sh"
"$DESKCHECK" bench --scaling --repeats 1 --json > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "exit $rc: $(tail -3 "$SCRATCH/err")"
python3 - "$SCRATCH/out" $rc <<'PY' || fail "bad --scaling output"
import json, sys
j = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
dims = j["dimensions"]
assert [d["dimension"] for d in dims] == ["steps", "events", "controls", "text"], dims
for d in dims:
    assert [p["factor"] for p in d["points"]] == [1, 4, 16], d
    assert all(p["us_per_run"] > 0 for p in d["points"]), d
    assert all(p["peak_heap_bytes"] > 0 for p in d["points"]), d  # counted, not sampled
    worst = max(d["time_exponent"], d["memory_exponent"])
    assert d["fails"] == (worst > j["exponent_max"]), d
assert (rc == 1) == any(d["fails"] for d in dims), rc
PY
"$DESKCHECK" bench --scaling --cases 5 > /dev/null 2>&1
expect_rc 2 $? "--cases with --scaling"
