# The messages issue 15 found misleading, each checked.
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"

# A nightly without a fuzz build is not "clean": exit 5 and the command that makes one.
make_checkout checkout
( cd checkout && "$DESKCHECK" nightly --campaign-cases 20 --seed 3 --fuzz-build "$SCRATCH/none" > ../out 2> ../err )
expect_rc 5 $? "nightly without a fuzz build"
grep -q "infrastructure error: no fuzz build in $SCRATCH/none; make it with: cmake --preset fuzz" out ||
    fail "nightly without a fuzz build does not say so"
( cd checkout && "$DESKCHECK" nightly --no-fuzz --campaign-cases 20 --seed 3 > ../out 2> ../err )
rc=$?
[ "$rc" -ne 5 ] || fail "nightly --no-fuzz is an infrastructure error"
grep -q "fuzzing: skipped — --no-fuzz" out || fail "nightly --no-fuzz does not say fuzzing was skipped"

# Same seed, same night: the campaign's rounds are counted, not timed.
( cd checkout && "$DESKCHECK" nightly --no-fuzz --campaign-cases 1000 --seed 9 > ../one 2>&1 )
( cd checkout && "$DESKCHECK" nightly --no-fuzz --campaign-cases 1000 --seed 9 > ../two 2>&1 )
grep "^  deskcheck run --seed" one > one.rounds
grep "^  deskcheck run --seed" two > two.rounds
[ -s one.rounds ] || fail "no rounds printed"
cmp -s one.rounds two.rounds || fail "the same seed ran other rounds: $(diff one.rounds two.rounds)"
grep -q -- "--cases 200 " one.rounds || fail "the first round is not 200 cases"
grep -q -- "--cases 400 " one.rounds || fail "the second round is not 400 cases"
grep -q -- "--cases 400 " one.rounds && [ "$(grep -c -- "--rules current" one.rounds)" = 3 ] || fail "1000 cases are not 200 + 400 + 400"
# The published rules alongside: 4/11 of the campaign's cases (363 = 200 + 163).
grep -q -- "--cases 163 --rules published" one.rounds && [ "$(grep -c -- "--rules published" one.rounds)" = 2 ] || fail "no published campaign of 200 + 163 cases"

# The counterexample line follows the round that found it.
( cd checkout && "$DESKCHECK" nightly --no-fuzz --campaign-cases 300 --seed 9 --mutation retry_unknown_once > ../out 2> ../err )
expect_rc 1 $? "self-test nightly (a finding exits 1, as run does)"
first_round=$(grep -n "campaign round 1:" err | cut -d: -f1)
first_ce=$(grep -n "^nightly: campaign: " err | head -1 | cut -d: -f1)
[ -n "$first_round" ] && [ -n "$first_ce" ] && [ "$first_round" -lt "$first_ce" ] ||
    fail "a counterexample line comes before the round that found it"

# run --cases 0 is refused; unknown names list the valid ones; --help lists them.
"$DESKCHECK" run --cases 0 > out 2> err
expect_rc 2 $? "run --cases 0"
grep -q "all properties hold on 0 cases" out && fail "run --cases 0 claims all properties hold"
"$DESKCHECK" run --property nope > out 2> err
expect_rc 2 $? "run --property nope"
grep -q "expected one of: no_resend_after_unknown, .*deterministic" err || fail "an unknown property does not list the valid ones"
"$DESKCHECK" run --mutation nope > out 2> err
expect_rc 2 $? "run --mutation nope"
grep -q "expected one of: unreadable_as_empty, .*not_done_despite_effect" err || fail "an unknown mutation does not list the valid ones"
"$DESKCHECK" run --help > out
grep -q "verdict_sound (V-1 V-2 D-1..D-3)" out || fail "run --help does not list the properties"
grep -q "inverted_dpi .*caught by click_lands_on_target" out || fail "run --help does not list the mutations"

# A scenario JSON with a mistake: convert reports the JSON error, not "fuzz_batch bytes".
sed 's/"seed": 1,/"seed": "one",/' "$SOURCE/tests/data/cli/multibyte_selection.json" > typo.json
"$DESKCHECK" convert typo.json --out ce > out 2> err
expect_rc 2 $? "convert of a broken scenario JSON"
grep -q "typo.json: not a valid scenario: /seed: expected an unsigned integer, got string" err || fail "convert: $(cat err)"
grep -q "fuzz_batch" out err && fail "convert read a scenario JSON as fuzz_batch bytes"

# replay prints no raw NUL or ESC, and a 100 KB key as one short line.
printf '{"format": "deskcheck-scenario/1", "%s": 1}' "$(head -c 100000 /dev/zero | tr '\0' k)" > key.json
"$DESKCHECK" replay key.json > out 2> err
expect_rc 2 $? "replay with a 100 KB key"
[ "$(wc -c < err)" -lt 1000 ] || fail "a 100 KB key gives a $(wc -c < err)-byte error line"
sed 's/"value": "h\\u00e9llo"/"value": "a\\u0000b\\u001b[31mc"/; s/"start": 2, "length": 1/"start": 0, "length": 0/' \
    "$SOURCE/tests/data/cli/multibyte_selection.json" > control.json
"$DESKCHECK" replay control.json > out 2> err
[ $? -le 1 ] || fail "replay of control bytes failed: $(cat err)"
[ "$(tr -cd '\000\033' < out | wc -c)" = 0 ] || fail "replay printed raw NUL or ESC bytes"
grep -q 'value="a\\x00b\\x1b\[31mc' out || fail "control bytes are not shown as \\xNN"

# Seeds are JSON strings (a number above 2^53 is rounded by jq).
"$DESKCHECK" run --cases 2 --seed 18446744073709551615 --json > out 2> err
grep -q '"seed": "18446744073709551615"' out || fail "run --json does not print the seed as a string"

# diff-rules groups its flips, with counts and one example each.
"$DESKCHECK" diff-rules published current > out
grep -q "situations change verdict, in [0-9]* groups" out || fail "diff-rules prints no summary"
grep -q "^  by action kind:" out || fail "diff-rules prints no count per action kind"
grep -q "^  x[0-9]* *published .* -> current " out || fail "diff-rules prints no groups"
grep -q "^        e.g. " out || fail "diff-rules prints no example per group"
[ "$(wc -l < out)" -lt 120 ] || fail "diff-rules prints $(wc -l < out) lines"
"$DESKCHECK" diff-rules published current --all | grep -q "^every situation:" || fail "diff-rules --all lists nothing"

# One grammar: every command takes -h as --help (its usage, exit 0); the observation rules are a
# rule set like the others (--rules observation), not a separate flag.
for c in $("$DESKCHECK" help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
    "$DESKCHECK" "$c" -h > out 2> err || fail "$c -h: exit $?: $(head -1 err)"
    grep -q "usage" out || fail "$c -h: prints no usage"
done
"$DESKCHECK" rules --rules observation | grep -q "^observation rules" || fail "rules --rules observation does not print the observation rules"
note "ok"
