# Without --campaign-cases the property campaigns fill their share of the budget: the summary says
# so, the rounds' printed counts add up to the campaign's cases (each round replays alone), and the
# campaign ran until its share's deadline (6 s of a one-minute budget), not a count that ends
# earlier. With --campaign-cases the campaign is counted: exactly that many cases.
source "$(dirname "$0")/lib.sh"
checkout=$SCRATCH/checkout
make_checkout "$checkout"
cd "$checkout"
common=(nightly --minutes 1 --no-fuzz --mutate-rules-cases 50 --seed 7 --jobs 2)
"$DESKCHECK" "${common[@]}" > "$SCRATCH/out" 2> "$SCRATCH/err"
expect_rc 0 $? "a clean night filled by time"
header=$(grep "^property campaign: " "$SCRATCH/out")
echo "$header" >&2
case $header in *"filled its share of the budget on 2 threads"*) ;; *) fail "the summary does not say the campaign filled its share" ;; esac
total=$(echo "$header" | sed -n 's/^property campaign: \([0-9]*\) cases in .*/\1/p')
seconds=$(echo "$header" | sed -n 's/.* rounds, \([0-9]*\)\.[0-9] s .*/\1/p')
rounds=$(sed -n '/^property campaign: /,/PROPERTY/p' "$SCRATCH/out" | sed -n 's/.*--cases \([0-9]*\) --rules current$/\1/p' | awk '{ s += $1 } END { print s }')
[ "$rounds" = "$total" ] || fail "the rounds' printed counts add up to $rounds, the campaign ran $total cases"
[ "$seconds" -ge 6 ] || fail "the campaign stopped after $seconds s, before its share's 6 s"
grep -q "^published campaign (rules published): .*filled its share" "$SCRATCH/out" || fail "the published campaign did not fill its share"
"$DESKCHECK" "${common[@]}" --campaign-cases 1000 > "$SCRATCH/counted" 2> "$SCRATCH/err"
expect_rc 0 $? "a counted night"
grep -q "^property campaign: 1000 cases in 3 rounds" "$SCRATCH/counted" || fail "--campaign-cases 1000 did not run 1000 cases in 3 rounds"
grep -q "filled its share" "$SCRATCH/counted" && fail "a counted campaign says it filled its share"
echo "ok: the campaign filled its share ($total cases in $seconds s) and --campaign-cases counts"
