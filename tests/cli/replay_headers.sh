# The counterexample header, checked: a recorded "violated" that no longer reproduces exits 1 and
# says NOT reproduced; an unknown outcome or property is one line naming the field and the file,
# exit 2; a file that reproduces its record exits 0 ("holds") or 1 ("violated").
source "$(dirname "$0")/lib.sh"
holds=$SOURCE/corpus/regressions/bug-current-no-watch-when-target-already-in-front.json
violated=$(grep -l '"outcome": "violated"' "$SOURCE"/corpus/regressions/*.json | head -1)
[ -f "$holds" ] && [ -f "$violated" ] || fail "regression files missing"

"$DESKCHECK" replay "$holds" > "$SCRATCH/out" 2>&1
expect_rc 0 $? "replay of a fixed bug that holds"
grep -q "recorded outcome: holds of .* (reproduced)" "$SCRATCH/out" || fail "no 'reproduced' line"

"$DESKCHECK" replay "$violated" > "$SCRATCH/out" 2>&1
expect_rc 1 $? "replay of a debt that is still violated"
grep -q "recorded outcome: violated of .* (reproduced)" "$SCRATCH/out" || fail "no 'reproduced' line for the debt"

sed 's/"outcome": "holds"/"outcome": "violated"/' "$holds" > "$SCRATCH/stale.json"
"$DESKCHECK" replay "$SCRATCH/stale.json" > "$SCRATCH/out" 2>&1
expect_rc 4 $? "replay of a recorded violation that no longer reproduces"
grep -q "recorded outcome: violated of .* (NOT reproduced)" "$SCRATCH/out" || fail "no 'NOT reproduced' line"
"$DESKCHECK" replay --json "$SCRATCH/stale.json" > "$SCRATCH/out" 2>&1
expect_rc 4 $? "replay --json of a recorded violation that no longer reproduces"
grep -q '"matches_header": false' "$SCRATCH/out" || fail "--json does not say the record did not reproduce"

bad_header() {  # bad_header NAME SED-EXPRESSION FIELD
    sed "$2" "$holds" > "$SCRATCH/$1.json"
    "$DESKCHECK" replay "$SCRATCH/$1.json" > "$SCRATCH/out" 2> "$SCRATCH/err"
    expect_rc 2 $? "replay with $1"
    [ "$(lines_of "$SCRATCH/err")" = 1 ] || fail "$1: not one line"
    grep -q "$SCRATCH/$1.json: /counterexample/$3: " "$SCRATCH/err" || fail "$1: the error names neither file nor field: $(cat "$SCRATCH/err")"
    [ -s "$SCRATCH/out" ] && fail "$1: replayed anyway"
    return 0
}
bad_header outcome_misspelt 's/"outcome": "holds"/"outcome": "violatd"/' outcome
bad_header unknown_property 's/"property": "[a-z_]*"/"property": "no_such_property"/' property
grep -q 'unknown property "no_such_property" (expected one of: no_resend_after_unknown' "$SCRATCH/err" ||
    fail "the unknown property error does not list the known ones"
"$DESKCHECK" shrink "$SCRATCH/unknown_property.json" --property verdict_sound > "$SCRATCH/out" 2> "$SCRATCH/err"
expect_rc 2 $? "shrink with an unknown header property"
note "ok"
