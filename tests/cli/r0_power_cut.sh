# deskcheck r0 --power-cut: the power cut at every primitive of the R0 fixtures holds (exit 0, the
# number of points printed), the same run twice prints the same (a pure function of the seed), and
# the protocol without one of its fsyncs fails (exit 1, naming a point); a bad --without is exit 2.
source "$(dirname "$0")/lib.sh"
cd "$SOURCE" || fail "no checkout"

"$DESKCHECK" r0 --power-cut --generated 2 > "$SCRATCH/out" 2>&1
expect_rc 0 $? "r0 --power-cut"
grep -Eq '^power-cut points: [0-9]+; held: ([0-9]+)/\1;' "$SCRATCH/out" || fail "no 'power-cut points: N; held: N/N' line: $(tail -3 "$SCRATCH/out")"
grep -q '^pass: every power-cut point recovered' "$SCRATCH/out" || fail "no pass line"

"$DESKCHECK" r0 --power-cut --generated 2 --json > "$SCRATCH/a.json" 2>&1
expect_rc 0 $? "r0 --power-cut --json"
grep -q '"pass": true' "$SCRATCH/a.json" || fail "--json does not say pass"
"$DESKCHECK" r0 --power-cut --generated 2 --json > "$SCRATCH/b.json" 2>&1
cmp -s "$SCRATCH/a.json" "$SCRATCH/b.json" || fail "two runs with the same seed differ"

"$DESKCHECK" r0 --without journal_append.fsync_file --generated 0 > "$SCRATCH/out" 2>&1
expect_rc 1 $? "r0 --power-cut without the journal's fsync"
grep -q '^FAIL: a power-cut point did not recover' "$SCRATCH/out" || fail "no FAIL line without the journal's fsync"
grep -q 'the protocol WITHOUT journal_append.fsync_file' "$SCRATCH/out" || fail "the output does not say which primitive was left out"

"$DESKCHECK" r0 --power-cut --without journal_append.fsync > "$SCRATCH/out" 2> "$SCRATCH/err"
expect_rc 2 $? "r0 --without a name that is no primitive"
[ "$(lines_of "$SCRATCH/err")" = 1 ] || fail "a bad --without is not one line"
grep -q "deskcheck r0: --without: 'journal_append.fsync' is no primitive of the protocol" "$SCRATCH/err" || fail "bad --without: $(cat "$SCRATCH/err")"
exit 0
