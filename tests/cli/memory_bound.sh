# S-8: memory linear in the input. `deskcheck replay` of the largest valid scenario (every bound of
# the format at once, texts that grow one value as far as they can: tests/data/largest-valid-
# scenario.json, sim/largest_scenario.h) finishes normally under a virtual-memory limit of
# LIMIT_KB and prints less than 1 MB; under a limit far too small for it, it ends with one line
# ("deskcheck: out of memory while running replay ...") and exit 3, never an abort (134).
# The limits (measured on the default build): deskcheck starts in 12 MB of address space, and the
# replay needs about 60 MB of it (peak resident about 54 MB): 128 MB leaves twice that; 32 MB lets
# it start and read the file, not replay it. Before the trace kept cut values, the replay took
# 730 MB resident and aborted on std::bad_alloc under either limit.
source "$(dirname "$0")/lib.sh"
big=$SOURCE/tests/data/largest-valid-scenario.json
[ -f "$big" ] || fail "missing $big"
LIMIT_KB=131072
SMALL_KB=32768

( ulimit -v "$LIMIT_KB"; timeout 300 "$DESKCHECK" replay "$big" ) > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "replay under ulimit -v $LIMIT_KB: exit $rc, expected 0 or 1: $(head -c 300 "$SCRATCH/err")"
bytes=$(wc -c < "$SCRATCH/out")
[ "$bytes" -lt 1000000 ] || fail "replay printed $bytes bytes, expected less than 1 MB"
grep -q "^-- properties" "$SCRATCH/out" || fail "replay printed no properties section"
grep -q "fnv1a64 " "$SCRATCH/out" || fail "replay shows no long value cut with its digest"
note "replay under ulimit -v $LIMIT_KB: exit $rc, $bytes bytes"

( ulimit -v "$SMALL_KB"; timeout 300 "$DESKCHECK" replay "$big" ) > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
expect_rc 3 "$rc" "replay under ulimit -v $SMALL_KB"
[ "$(lines_of "$SCRATCH/err")" = 1 ] || fail "not one line of error: $(head -c 300 "$SCRATCH/err")"
grep -q "^deskcheck: out of memory while running replay" "$SCRATCH/err" || fail "unexpected message: $(cat "$SCRATCH/err")"

# `deskcheck bench` measures the same replay in a child process and reports it.
"$DESKCHECK" bench --cases 1 --repeats 1 --json > "$SCRATCH/bench.json" 2> "$SCRATCH/err" || fail "bench: $(tail -c 300 "$SCRATCH/err")"
grep -q '"largest_scenario": {' "$SCRATCH/bench.json" || fail "bench --json has no largest_scenario: $(tail -c 300 "$SCRATCH/bench.json")"
peak=$(sed -n 's/^ *"peak_mb": \([0-9]*\).*/\1/p' "$SCRATCH/bench.json")
printed=$(sed -n 's/^ *"output_bytes": \([0-9]*\).*/\1/p' "$SCRATCH/bench.json")
[ -n "$peak" ] && [ "$peak" -gt 0 ] && [ "$peak" -lt 64 ] || fail "bench: largest_scenario.peak_mb '$peak', expected 1..63"
[ -n "$printed" ] && [ "$printed" -lt 1000000 ] || fail "bench: largest_scenario.output_bytes '$printed'"
grep -q '"ms": ' "$SCRATCH/bench.json" || fail "bench: largest_scenario has no ms"
note "bench: peak $peak MB, $printed bytes"
note "ok"
