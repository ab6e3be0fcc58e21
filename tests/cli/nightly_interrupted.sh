# A nightly stopped by SIGINT or SIGTERM ($2: INT or TERM) while libFuzzer runs (a stand-in,
# tests/cli/fake_libfuzzer.sh): every child gone (the stand-in and the worker it left behind), the
# new corpus inputs merged, the temporary corpus removed, the targets after it not started, a
# summary marked interrupted, exit 130 / 143. The signal is sent once the stand-in says it runs.
source "$(dirname "$0")/lib.sh"
signal=$2
want=$([ "$signal" = INT ] && echo 130 || echo 143)
checkout=$SCRATCH/checkout
make_checkout "$checkout"
make_fake_fuzz_build "$SCRATCH/fuzzbuild"
mkdir -p "$SCRATCH/state"
cd "$checkout"
FAKE_FUZZ_MODE=block FAKE_FUZZ_STATE=$SCRATCH/state \
    "$DESKCHECK" nightly --minutes 1 --campaign-cases 30 --seed 7 --fuzz-build "$SCRATCH/fuzzbuild" \
    > "$SCRATCH/out" 2> "$SCRATCH/err" &
nightly=$!
STARTED+=("$nightly")
wait_for_file "$SCRATCH/state/fuzz_batch.ready" 240 || { cat "$SCRATCH/err" >&2; fail "libFuzzer (the stand-in) never started"; }
read -r fuzzer worker < "$SCRATCH/state/fuzz_batch.pids"
alive "$fuzzer" || fail "the stand-in is not running"
[ -d "$checkout/build/nightly/0x7/fuzz_batch/corpus" ] || fail "no temporary corpus while fuzzing"
kill -"$signal" "$nightly"
wait "$nightly"
rc=$?
cat "$SCRATCH/out" >&2
expect_rc "$want" "$rc" "nightly after SIG$signal"
grep -q "^INTERRUPTED by SIG$signal during fuzz_batch" "$SCRATCH/out" || fail "no summary marked interrupted"
grep -q "^exit $want (interrupted by SIG$signal)" "$SCRATCH/out" || fail "the summary does not end with exit $want"
grep -q "not done: fuzz_scenario_json (not started)" "$SCRATCH/out" || fail "the summary does not say what was not done"
grep -q "not done: determinism sample (not started)" "$SCRATCH/out" || fail "the summary does not say the determinism sample was skipped"
for p in "$fuzzer" "$worker"; do
    alive "$p" && fail "child process $p still runs after the nightly exited"
done
for i in 1 2 3; do
    f=$checkout/corpus/fuzz_batch/new-fuzz_batch-$i
    [ -f "$f" ] || fail "new input $i of the interrupted run was not merged into corpus/fuzz_batch"
    [ "$(cat "$f")" = "new input fuzz_batch $i" ] || fail "merged input $i is not complete"
done
[ -f "$checkout/corpus/fuzz_batch/seed-one" ] || fail "a corpus input was removed"
ls "$checkout/corpus/fuzz_scenario_json" | grep -q . && fail "a target after the interruption ran"
[ -e "$checkout/build/nightly/0x7/fuzz_batch/corpus" ] && fail "the temporary corpus was left behind"
[ -e "$checkout/build/nightly/0x7/fuzz_batch/merged" ] && fail "the temporary merge folder was left behind"
ls -a "$checkout/corpus/fuzz_batch" | grep -q '\.tmp-' && fail "a temporary file was left in the corpus"
grep -q "run interrupted" "$checkout/build/nightly/0x7/fuzz_batch/fuzz.log" || fail "the signal did not reach libFuzzer"
note "ok: SIG$signal while fuzzing"
