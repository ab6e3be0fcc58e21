# `deskcheck case --seed S --index K` writes case K of `run --seed S` as a file `replay` takes: the
# same case, judged the same (with a mutation the checks catch, the violated properties of the slice
# `run --first-case K --cases 1` and of the case's replay are the same, case for case); the same
# bytes each time; bad usage is exit 2 with one line and nothing printed.
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"

violated_in_run() {  # the names of the properties the one-case campaign violated (its JSON, one field a line)
    "$DESKCHECK" run --seed 5 --first-case "$1" --cases 1 --no-shrink --mutation unreadable_as_empty --out cx --json 2>/dev/null |
        awk -F'"' '/^      "name": / {name=$4} /^      "violated": [1-9]/ {print name}' | sort
}
violated_in_replay() {
    "$DESKCHECK" replay "$1" --mutation unreadable_as_empty 2>/dev/null | sed -n 's/^  \([a-z_]*\) (.*): violated.*/\1/p' | sort
}
caught=0
for k in $(seq 0 24); do
    "$DESKCHECK" case --seed 5 --index "$k" --out "case-$k.json" 2> err || fail "case --index $k: exit $?: $(cat err)"
    grep -qF "case $k of seed 5 written to case-$k.json" err || fail "case --index $k: no 'written' line: $(cat err)"
    a=$(violated_in_run "$k")
    b=$(violated_in_replay "case-$k.json")
    [ "$a" = "$b" ] || fail "case $k: run violated [$a], the case file's replay violated [$b]"
    [ -n "$a" ] && caught=$((caught + 1))
done
[ "$caught" -gt 0 ] || fail "unreadable_as_empty was caught on none of cases 0..24 of seed 5: the comparison proves nothing"
note "$caught of 25 cases violated, the same properties in run and in replay"

"$DESKCHECK" case --seed 5 --index 3 > a.json || fail "case to stdout: exit $?"
"$DESKCHECK" case --seed 5 --index 3 --out - > b.json || fail "case --out -: exit $?"
cmp -s a.json case-3.json && cmp -s b.json case-3.json || fail "case 3 of seed 5 is not the same bytes on each call"
cmp -s case-3.json case-4.json && fail "cases 3 and 4 are the same file"
"$DESKCHECK" case --seed 5 --index 3 --rules published > p.json || fail "case --rules published: exit $?"
grep -q '"rules": *"published"' p.json || fail "case --rules published: the file does not name the rule set"

refused() {  # EXPECTED-TEXT ARGS...
    local want=$1
    shift
    "$DESKCHECK" case "$@" > out 2> err
    expect_rc 2 $? "case $*"
    [ "$(wc -l < err)" -eq 1 ] || fail "case $*: not one line of error: $(cat err)"
    grep -qF -- "$want" err || fail "case $*: the message lacks '$want': $(cat err)"
    [ ! -s out ] || fail "case $*: printed a scenario"
}
refused '--seed and --index are both required' --seed 5
refused '--seed and --index are both required' --index 5
refused '--rules takes published or current' --seed 5 --index 1 --rules observation
refused 'unexpected argument' --seed 5 --index 1 extra
refused 'index' --seed 5 --index 99999999999
echo "PASS"
