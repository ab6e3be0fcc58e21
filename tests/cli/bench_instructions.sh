# deskcheck bench --instructions counts instructions per scenario with callgrind: the same count on
# two runs of one build (the figure the machine's load does not move), its parts add up to the
# whole, and without valgrind it exits 5 with one line naming valgrind.
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
"$DESKCHECK" bench --instructions --cases 20 --json > a.json 2> a.err
rc=$?
[ "$rc" = 0 ] || cat a.err >&2
expect_rc 0 "$rc" "bench --instructions"
"$DESKCHECK" bench --instructions --cases 20 --json > b.json 2> b.err
expect_rc 0 $? "bench --instructions again"
cmp -s a.json b.json || fail "two counts of one build differ: $(cat a.json) vs $(cat b.json)"
python3 - a.json <<'PY' || fail "the parts do not add up to the whole: $(cat a.json)"
import json, sys
j = json.load(open(sys.argv[1]))["instructions_per_scenario"]
parts = j["sim_setup"] + j["run_after_setup"] + j["checks"]
assert j["total"] > 10_000, j
assert abs(parts - j["total"]) <= 2, (parts, j)
assert min(j["sim_setup"], j["run_after_setup"], j["checks"]) > 0, j
PY
PATH=/nonexistent "$DESKCHECK" bench --instructions > none.out 2> none.err
expect_rc 5 $? "bench --instructions without valgrind"
[ "$(lines_of none.err)" = 1 ] && grep -q "valgrind" none.err || fail "without valgrind: not one line naming it: $(cat none.err)"
"$DESKCHECK" bench --instructions --repeats 2 > /dev/null 2> usage.err
expect_rc 2 $? "bench --instructions --repeats"
echo "ok: $(cat a.json | tr -d '\n ')"
