# SIGINT during the nightly's property campaign: it stops at the next case, prints the summary so
# far marked interrupted (how many of the counted cases ran), skips the rest, exits 130. The signal
# is sent after the first round's progress line.
source "$(dirname "$0")/lib.sh"
checkout=$SCRATCH/checkout
make_checkout "$checkout"
cd "$checkout"
"$DESKCHECK" nightly --no-fuzz --campaign-cases 10000000 --seed 11 > "$SCRATCH/out" 2> "$SCRATCH/err" &
nightly=$!
STARTED+=("$nightly")
wait_for_line "$SCRATCH/err" "campaign round 1:" 240 || { cat "$SCRATCH/err" >&2; fail "no campaign round"; }
kill -INT "$nightly"
for _ in $(seq 600); do alive "$nightly" || break; sleep 0.1; done
alive "$nightly" && fail "the nightly still runs 60 s after SIGINT"
wait "$nightly"
rc=$?
cat "$SCRATCH/out" >&2
expect_rc 130 "$rc" "nightly after SIGINT in the campaign"
grep -q "^INTERRUPTED by SIGINT during the property campaign, after [0-9]* of 10000000 cases" "$SCRATCH/out" ||
    fail "no summary marked interrupted with the cases done"
grep -q "^property campaign: [0-9]* cases" "$SCRATCH/out" || fail "no campaign table in the summary"
grep -q "not done: fuzzing (not started)" "$SCRATCH/out" || fail "the summary does not say fuzzing was skipped"
note "ok: SIGINT in the campaign"
