# Without --mutate-rules-cases, mutate-rules gives its unexplained survivors the rest of its share:
# round 2 runs only them, on a seed of its own, with more cases than round 1. With an empty
# baseline the published set's deliberate freedoms survive round 1 (on any seed), so there is a
# round 2 — unless round 1 took the whole 6 s share (a loaded machine): then there must be none.
# With --mutate-rules-cases the part is counted: one round.
source "$(dirname "$0")/lib.sh"
checkout=$SCRATCH/checkout
make_checkout "$checkout"
cd "$checkout"
echo '{"explained": {}}' > "$SCRATCH/empty.json"
common=(nightly --minutes 1 --no-fuzz --campaign-cases 30 --seed 7 --jobs 2 --json --mutate-rules-baseline "$SCRATCH/empty.json")
"$DESKCHECK" "${common[@]}" > "$SCRATCH/out.json" 2> "$SCRATCH/err"
rc=$?
[ "$rc" = 0 ] || cat "$SCRATCH/err" >&2
expect_rc 0 "$rc" "a night whose mutate-rules fills its share"
rounds=$(python3 - "$SCRATCH/out.json" <<'PY') || fail "mutate-rules did not give its survivors a second round: $(tr -d '\n' < "$SCRATCH/out.json" | head -c 600)"
import json, sys
m = json.load(open(sys.argv[1]))["mutate_rules"]
assert m["filled_by_time"] is True, m["filled_by_time"]
rounds = m["rounds"]
share_s = 6
if rounds[0]["seconds"] < share_s - 1:
    assert len(rounds) >= 2, rounds
for before, after in zip(rounds, rounds[1:]):
    assert after["cases"] > before["cases"] and after["seed"] != before["seed"], (before, after)
    assert after["ids"] and after["mutants"] == len(after["ids"]), after
assert not m["explained_survivors"], m["explained_survivors"]  # the baseline is empty
print(len(rounds))
PY
[ "$rounds" = 1 ] || grep -q "mutate-rules: round 2: " "$SCRATCH/err" || fail "the progress does not announce round 2"
"$DESKCHECK" "${common[@]}" --mutate-rules-cases 50 > "$SCRATCH/counted.json" 2> "$SCRATCH/err"
expect_rc 0 $? "a night with counted mutate-rules"
python3 - "$SCRATCH/counted.json" <<'PY' || fail "--mutate-rules-cases did not count the part in one round"
import json, sys
m = json.load(open(sys.argv[1]))["mutate_rules"]
assert m["filled_by_time"] is False and len(m["rounds"]) == 1 and m["rounds"][0]["cases"] == 50, m["rounds"]
PY
echo "ok: survivors get later rounds by time; --mutate-rules-cases counts one round"
