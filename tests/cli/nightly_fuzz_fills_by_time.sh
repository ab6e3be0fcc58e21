# Each fuzz target fills its share of the budget: libFuzzer gets -max_total_time = the share (a
# one-minute night: fuzz_batch's 20 % is 12 s) and no -runs, and the summary says "by time". With
# --fuzz-counted, -runs is the share at the nominal rate and -max_total_time the clock stop (twice
# the share).
source "$(dirname "$0")/lib.sh"
checkout=$SCRATCH/checkout
make_checkout "$checkout"
make_fake_fuzz_build "$SCRATCH/fuzzbuild"
mkdir -p "$SCRATCH/args"
export FAKE_FUZZ_ARGS=$SCRATCH/args
cd "$checkout"
common=(nightly --minutes 1 --campaign-cases 30 --mutate-rules-cases 50 --seed 7 --jobs 1 --fuzz-build "$SCRATCH/fuzzbuild")
"$DESKCHECK" "${common[@]}" --json > "$SCRATCH/out.json" 2> "$SCRATCH/err"
rc=$?
[ "$rc" = 0 ] || cat "$SCRATCH/out.json" "$SCRATCH/err" >&2
expect_rc 0 "$rc" "a night whose fuzz targets fill their shares"
grep -qx -- "-max_total_time=12" "$SCRATCH/args/fuzz_batch.args" || fail "fuzz_batch was not given its 12 s share: $(tr '\n' ' ' < "$SCRATCH/args/fuzz_batch.args")"
grep -qx -- "-max_total_time=3" "$SCRATCH/args/fuzz_journal.args" || fail "fuzz_journal was not given its 3 s share"
grep -q -- "^-runs=" "$SCRATCH/args/fuzz_batch.args" && fail "a target filling its share was given -runs"
grep -q '"filled_by_time": *true' "$SCRATCH/out.json" || grep -q '"filled_by_time":true' "$SCRATCH/out.json" || fail "the JSON summary does not say the targets filled their shares"
grep -q "fuzz_batch: fuzzing for its share, 12 s" "$SCRATCH/err" || fail "the progress does not say fuzz_batch fills its share"
"$DESKCHECK" "${common[@]}" --fuzz-counted > "$SCRATCH/counted" 2> "$SCRATCH/err"
expect_rc 0 $? "a night with counted fuzzing"
grep -qx -- "-runs=10800" "$SCRATCH/args/fuzz_batch.args" || fail "--fuzz-counted did not give fuzz_batch -runs=10800 (12 s at 900 exec/s)"
grep -qx -- "-max_total_time=24" "$SCRATCH/args/fuzz_batch.args" || fail "--fuzz-counted did not stop the clock at twice the share"
grep -q "by time" "$SCRATCH/counted" && fail "a counted night's summary says by time"
echo "ok: fuzz targets fill their shares by default, --fuzz-counted counts"
