# SIGINT during `deskcheck run`: it stops at the next case, prints the table of the cases run
# marked interrupted, exits 130. The signal is sent after the header line.
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
"$DESKCHECK" run --cases 10000000 --seed 5 > "$SCRATCH/out" 2> "$SCRATCH/err" &
run=$!
STARTED+=("$run")
wait_for_line "$SCRATCH/err" "progress: 1/10000000" 120 || fail "no progress line"
kill -INT "$run"
for _ in $(seq 600); do alive "$run" || break; sleep 0.1; done
alive "$run" && fail "run still runs 60 s after SIGINT"
wait "$run"
expect_rc 130 $? "run after SIGINT"
grep -q "^interrupted by SIGINT after [0-9]* of 10000000 cases: the summary so far" "$SCRATCH/out" || fail "no interrupted summary"
grep -q "^no_resend_after_unknown" "$SCRATCH/out" || fail "no property table"
note "ok"
