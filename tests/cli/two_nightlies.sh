# Two nightlies in one checkout (same seed, so the same build/nightly/<seed>/ folders):
#  1. while one fuzzes, a second exits 6 at once with a message naming the first, and deletes
#     nothing of it (its temporary corpus is still there, its libFuzzer still runs);
#  2. with --wait, a second waits, says so, and runs once the first has ended;
#  3. two started at the same moment: exactly one of them refuses.
source "$(dirname "$0")/lib.sh"
checkout=$SCRATCH/checkout
make_checkout "$checkout"
make_fake_fuzz_build "$SCRATCH/fuzzbuild"
mkdir -p "$SCRATCH/state"
cd "$checkout"
# An array, not a function: `"${nightly[@]}" &` makes $! the nightly's own pid.
nightly=("$DESKCHECK" nightly --minutes 1 --campaign-cases 20 --seed 7 --fuzz-build "$SCRATCH/fuzzbuild")

# 1.
FAKE_FUZZ_MODE=block FAKE_FUZZ_STATE=$SCRATCH/state "${nightly[@]}" > "$SCRATCH/a.out" 2> "$SCRATCH/a.err" &
first=$!
STARTED+=("$first")
wait_for_file "$SCRATCH/state/fuzz_batch.ready" 240 || { cat "$SCRATCH/a.err" >&2; fail "the first nightly never fuzzed"; }
read -r fuzzer _ < "$SCRATCH/state/fuzz_batch.pids"
FAKE_FUZZ_MODE=quick timeout 60 "$DESKCHECK" nightly --minutes 1 --campaign-cases 20 --seed 7 \
    --fuzz-build "$SCRATCH/fuzzbuild" > "$SCRATCH/b.out" 2> "$SCRATCH/b.err"
rc=$?
cat "$SCRATCH/b.err" >&2
expect_rc 6 "$rc" "the second nightly"
grep -q "another nightly is running in this checkout (pid $first, seed 0x7" "$SCRATCH/b.err" ||
    fail "the second nightly does not name the first"
[ "$(lines_of "$SCRATCH/b.err")" = 1 ] || fail "the second nightly says more than one line"
[ -s "$SCRATCH/b.out" ] && fail "the second nightly printed a summary"
[ -d "$checkout/build/nightly/0x7/fuzz_batch/corpus" ] || fail "the second nightly removed the first one's corpus"
alive "$fuzzer" || fail "the first nightly's libFuzzer is gone"

# 2.
FAKE_FUZZ_MODE=quick "${nightly[@]}" --wait > "$SCRATCH/c.out" 2> "$SCRATCH/c.err" &
waiter=$!
STARTED+=("$waiter")
wait_for_line "$SCRATCH/c.err" "waiting for the nightly running in this checkout to end (pid $first" 60 ||
    fail "--wait does not say it waits"
grep -q "campaign round" "$SCRATCH/c.err" && fail "the waiting nightly started before the first ended"
kill -TERM "$first"
wait "$first"
expect_rc 143 $? "the first nightly after SIGTERM"
for _ in $(seq 1200); do alive "$waiter" || break; sleep 0.1; done
alive "$waiter" && fail "the waiting nightly did not finish"
wait "$waiter"
rc=$?
grep -q "campaign round 1:" "$SCRATCH/c.err" || fail "the waiting nightly did not run after the first one"
[ "$rc" -ne 6 ] && [ "$rc" -lt 128 ] || fail "the waiting nightly exited $rc"
grep -q "^exit $rc " "$SCRATCH/c.out" || fail "the waiting nightly printed no summary"

# 3.
rm -f "$SCRATCH/state/"*
FAKE_FUZZ_MODE=block FAKE_FUZZ_STATE=$SCRATCH/state "${nightly[@]}" > "$SCRATCH/d.out" 2> "$SCRATCH/d.err" &
d=$!
FAKE_FUZZ_MODE=block FAKE_FUZZ_STATE=$SCRATCH/state "${nightly[@]}" > "$SCRATCH/e.out" 2> "$SCRATCH/e.err" &
e=$!
STARTED+=("$d" "$e")
refused=""
for _ in $(seq 600); do
    if ! alive "$d"; then refused=$d; break; fi
    if ! alive "$e"; then refused=$e; break; fi
    sleep 0.1
done
[ -n "$refused" ] || fail "neither of two nightlies started together refused"
wait "$refused"
expect_rc 6 $? "the nightly that lost the race"
holder=$([ "$refused" = "$d" ] && echo "$e" || echo "$d")
wait_for_file "$SCRATCH/state/fuzz_batch.ready" 240 || fail "the nightly that won the race never fuzzed"
alive "$holder" || fail "the nightly that won the race is gone"
kill -INT "$holder"
wait "$holder"
expect_rc 130 $? "the nightly that won the race, after SIGINT"
note "ok"
