# The nightly's exit codes are the ones every command shares (cli/args.h, docs/cli.md): a fuzz
# crash that no property explains (a sanitizer finding) exits 7 and names the crash; a clean night
# with the same stand-in exits 0; a property violation exits 1 (tests/cli/messages.sh).
source "$(dirname "$0")/lib.sh"
checkout=$SCRATCH/checkout
make_checkout "$checkout"
make_fake_fuzz_build "$SCRATCH/fuzzbuild"
cd "$checkout"
common=(nightly --minutes 1 --campaign-cases 30 --mutate-rules-cases 50 --seed 7 --fuzz-build "$SCRATCH/fuzzbuild")
"$DESKCHECK" "${common[@]}" > "$SCRATCH/clean.out" 2> "$SCRATCH/clean.err"
rc=$?
[ "$rc" = 0 ] || cat "$SCRATCH/clean.out" "$SCRATCH/clean.err" >&2
expect_rc 0 "$rc" "a night whose stand-in fuzzers find nothing"
FAKE_FUZZ_MODE=crash "$DESKCHECK" "${common[@]}" > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
cat "$SCRATCH/out" >&2
expect_rc 7 "$rc" "a night with a fuzz crash that is not a property violation"
grep -q "^exit 7 (fuzz crash found)" "$SCRATCH/out" || fail "the summary does not end with exit 7 (fuzz crash found)"
grep -q "crash-0123456789abcdef" "$SCRATCH/out" || fail "the summary does not name the crash file"
echo "ok: nightly exits 0 clean, 7 on a fuzz crash"
