# Inputs the command line reads are strict: a JSON input with a duplicate key is refused with the
# key and its JSON pointer (judge-snapshot's snapshot, nightly's mutate-rules baseline), never
# resolved to the last value; a numeric option beyond its type or its range is exit 2 with one
# line, never clamped or wrapped (--adapter-timeout-ms was clamped to 600000, --seed past 2^64).
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"

# expect_usage WHAT WANT CMD...: exit 2, one line of error holding WANT.
expect_usage() {
    local what=$1 want=$2 rc
    shift 2
    "$@" > out.txt 2> err.txt
    rc=$?
    [ $rc -eq 2 ] || { cat err.txt >&2; fail "$what: exit $rc, expected 2"; }
    grep -qF -- "$want" err.txt || { cat err.txt >&2; fail "$what: the error does not say '$want'"; }
    [ "$(lines_of err.txt)" -eq 1 ] || { cat err.txt >&2; fail "$what: not one line of error"; }
}

snapshot='{"observedAt":"t1","source":"uia","correlationId":"c1","target":"e1","state":"open",
  "evidenceStatus":"observed","freshness":"fresh","fingerprint":"f1","effectStatus":"applied"}'
good='{"action":{"correlationId":"c1","target":"e1","expectedState":"open"},
  "contract":{"version":"1","requiredFields":["state"],"knownStates":["open","closed"]},
  "snapshot":'"$snapshot"'}'
printf '%s' "$good" > good.json
"$DESKCHECK" judge-snapshot good.json > out.txt 2> err.txt
expect_rc 0 $? "judge-snapshot of a valid input"
# The last "state" would read "closed" (not observed); the first "open" (observed): refused.
printf '%s' "${good/\"state\":\"open\",/\"state\":\"open\",\"state\":\"closed\",}" > dup.json
grep -q '"state":"open","state":"closed"' dup.json || fail "the test input has no duplicate key"
expect_usage "judge-snapshot with a duplicate key" '/snapshot/state: duplicate key "state"' "$DESKCHECK" judge-snapshot dup.json

# nightly's mutate-rules baseline (explained.json): a duplicate mutation id is refused, named.
mkdir -p checkout
make_checkout checkout
printf '{"explained": {"a:b:c": "one reason", "a:b:c": "another"}}' > checkout/explained.json
(cd checkout && "$DESKCHECK" nightly --no-fuzz --campaign-cases 5 --mutate-rules-cases 1 --seed 3 --out "$SCRATCH/night" \
    --mutate-rules-baseline explained.json > "$SCRATCH/out.txt" 2> "$SCRATCH/err.txt")
grep -qF 'explained.json: duplicate key "a:b:c" at /explained/a:b:c' out.txt err.txt ||
    { cat out.txt err.txt >&2; fail "nightly does not name the duplicate key of its baseline"; }

# Numbers beyond their type or range: exit 2, one line, never clamped.
expect_usage "--adapter-timeout-ms 0" "--adapter-timeout-ms must lie in 1..600000, got '0'" \
    "$DESKCHECK" r0 --adapter-cmd "python3 $SOURCE/tools/r0-adapter-naive.py" --adapter-timeout-ms 0 --generated 0 --fixtures "$SOURCE/corpus/r0"
expect_usage "--adapter-timeout-ms 600001" "--adapter-timeout-ms must lie in 1..600000, got '600001'" \
    "$DESKCHECK" r0 --adapter-cmd "python3 $SOURCE/tools/r0-adapter-naive.py" --adapter-timeout-ms 600001 --generated 0 --fixtures "$SOURCE/corpus/r0"
expect_usage "--adapter-timeout-ms past 2^64" "--adapter-timeout-ms is beyond 18446744073709551615" \
    "$DESKCHECK" r0 --adapter-cmd "python3 $SOURCE/tools/r0-adapter-naive.py" --adapter-timeout-ms 18446744073709551616 --generated 0 --fixtures "$SOURCE/corpus/r0"
expect_usage "--adapter-timeout-ms abc" "--adapter-timeout-ms expects an unsigned number, got 'abc'" \
    "$DESKCHECK" r0 --adapter-cmd "python3 $SOURCE/tools/r0-adapter-naive.py" --adapter-timeout-ms abc --generated 0 --fixtures "$SOURCE/corpus/r0"
expect_usage "run --seed past 2^64" "--seed is beyond 18446744073709551615, got '18446744073709551616'" \
    "$DESKCHECK" run --seed 18446744073709551616 --cases 1
expect_usage "run --seed -1" "--seed expects an unsigned number, got '-1'" "$DESKCHECK" run --seed -1 --cases 1
note "ok"
