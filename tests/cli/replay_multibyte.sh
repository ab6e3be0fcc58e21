# replay --json on a valid scenario whose selection starts inside a two-byte character, typed
# into: the value becomes invalid UTF-8. It used to abort (nlohmann type_error.316); the JSON now
# carries U+FFFD, and the text output \xNN, both valid UTF-8.
source "$(dirname "$0")/lib.sh"
file=$SOURCE/tests/data/cli/multibyte_selection.json
"$DESKCHECK" replay --json "$file" > "$SCRATCH/out.json" 2> "$SCRATCH/err"
rc=$?
[ "$rc" -le 1 ] || fail "replay --json exited $rc: $(head -c 300 "$SCRATCH/err")"
[ -s "$SCRATCH/err" ] && fail "replay --json wrote to stderr: $(head -c 300 "$SCRATCH/err")"
grep -q "$(printf '\xef\xbf\xbd')" "$SCRATCH/out.json" || fail "the broken value is not written as U+FFFD"
iconv -f UTF-8 -t UTF-8 "$SCRATCH/out.json" > /dev/null || fail "the JSON output is not valid UTF-8"
tail -c 3 "$SCRATCH/out.json" | grep -q "]" || fail "the JSON output is cut short"
"$DESKCHECK" replay "$file" > "$SCRATCH/out.txt" 2>&1
[ $? -le 1 ] || fail "replay (text) failed"
iconv -f UTF-8 -t UTF-8 "$SCRATCH/out.txt" > /dev/null || fail "the text output is not valid UTF-8"
grep -q 'after:  value="h\\xc3xllo"' "$SCRATCH/out.txt" || fail "the broken byte is not shown as \\xc3"
note "ok"
