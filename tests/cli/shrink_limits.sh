# shrink on a maximum-size desktop (16 windows of 64 controls): progress on stderr, a limit by
# count (--max-attempts: the same file gives the same result), SIGINT stops it with the result so
# far written (exit 130). Before issue 15 such a shrink built every candidate of a round up front
# and ran for minutes without a word.
source "$(dirname "$0")/lib.sh"
big=$SOURCE/tests/data/cli/maximum_size_violating.json
cd "$SCRATCH"
shrink() { "$DESKCHECK" shrink "$big" --property no_resend_after_unknown --mutation retry_unknown_once "$@"; }

began=$(date +%s)
shrink --out all.json > out 2> err
expect_rc 0 $? "shrink of a maximum-size desktop"
[ $(( $(date +%s) - began )) -le 120 ] || fail "the shrink took more than 120 s"
grep -q "^shrink: .*(16 windows, 1024 controls, 2 steps, 96 events), keeping no_resend_after_unknown violated; at most 4000 attempts" err ||
    fail "no start line on stderr"
grep -q "^shrink: 50 attempts, [0-9]* kept, now " err || fail "no progress line on stderr"
grep -q "^shrunk 16 windows, 1024 controls, 2 steps, 96 events -> 1 windows" out || fail "not shrunk: $(cat out)"

shrink --out thirty.json --max-attempts 30 > out 2> err
expect_rc 0 $? "shrink --max-attempts 30"
grep -q "(30 attempts; stopped at --max-attempts" out || fail "--max-attempts does not stop at 30: $(cat out)"
shrink --out thirty-again.json --max-attempts 30 > /dev/null 2>&1
cmp -s thirty.json thirty-again.json || fail "the same file and limit shrank to two results"
"$DESKCHECK" replay thirty.json > /dev/null 2>&1
expect_rc 0 $? "replay of a shrink stopped by --max-attempts"
"$DESKCHECK" shrink "$big" --property no_resend_after_unknown --max-attempts 0 > /dev/null 2> err
expect_rc 2 $? "--max-attempts 0"
"$DESKCHECK" shrink "$big" --property no_resend_after_unknown --mutation none > /dev/null 2> err
expect_rc 2 $? "shrink of a self-test file with its mutation left out"
grep -q "holds; nothing to shrink (its header names the mutation retry_unknown_once, which --mutation none leaves out)" err ||
    fail "shrink does not point at the header's mutation: $(cat err)"

# SIGINT once the first progress line is out (the start line: the handler is in place by then).
# The shrinker is held with SIGSTOP while the test looks for the line, so it cannot finish between
# the line and the signal; the signal, sent while it is stopped, arrives when it continues.
"$DESKCHECK" shrink "$big" --property no_resend_after_unknown --mutation retry_unknown_once --out interrupted.json > out 2> err &
pid=$!
STARTED+=("$pid")
seen=""
for _ in $(seq 3000); do
    kill -STOP "$pid" 2>/dev/null || break
    if grep -q "^shrink: .*keeping no_resend_after_unknown violated" err; then seen=yes; break; fi
    kill -CONT "$pid"
    sleep 0.005
done
[ -n "$seen" ] || fail "no progress line before the shrink ended: $(cat out)"
kill -INT "$pid"
kill -CONT "$pid"
wait "$pid"
expect_rc 130 $? "shrink after SIGINT"
grep -q "stopped by SIGINT: the result so far" out || fail "the shrink does not say SIGINT stopped it: $(cat out)"
grep -q "^written to interrupted.json" out || fail "the result so far was not written"
"$DESKCHECK" replay interrupted.json > /dev/null 2>&1
expect_rc 0 $? "replay of the interrupted shrink's result"

# The header gives what the options leave unsaid (property, mutation), as replay takes them; "-"
# reads standard input and then needs --out; a file without a header needs --property.
"$DESKCHECK" run --seed 5 --cases 30 --no-shrink --mutation unreadable_as_empty --out hdr > /dev/null 2>&1
f=$(ls hdr/*.json | head -1)
[ -n "$f" ] || fail "run --mutation unreadable_as_empty wrote no counterexample on seed 5"
"$DESKCHECK" shrink "$f" --out from-header.json > out 2>&1
expect_rc 0 $? "shrink of a counterexample without --property"
"$DESKCHECK" shrink - --out from-stdin.json < "$f" > out 2>&1
expect_rc 0 $? "shrink - < counterexample"
cmp -s from-header.json from-stdin.json || fail "shrink FILE and shrink - < FILE differ"
"$DESKCHECK" shrink - < "$f" > out 2> err
expect_rc 2 $? "shrink - without --out"
grep -q "needs --out" err || fail "shrink - without --out does not say it needs --out: $(cat err)"
"$DESKCHECK" case --seed 5 --index 1 > bare.json
"$DESKCHECK" shrink bare.json --out bare-shrunk.json > out 2> err
expect_rc 2 $? "shrink of a file without a header, without --property"
grep -q "needs --property" err || fail "shrink without a header or --property: $(cat err)"
note "ok"
