# SIGINT / SIGTERM during an r0 mode (MODE: bench, adapter-cmd, real, crash, campaign; SIGNAL: INT, TERM;
# FORMAT: text, json): deskcheck stops at its next boundary, prints the rows (or cases) so far
# marked interrupted, removes its temporary workspaces, leaves no child process (the adapter's
# whole group, the crash harness's task and recovery), and exits 130 / 143.
source "$(dirname "$0")/lib.sh"
source "$HERE/r0_lib.sh"
mode=$2 sig=${3:-INT} format=${4:-text}
want_rc=130
[ "$sig" = TERM ] && want_rc=143
json=()
[ "$format" = json ] && json=(--json)
cd "$SOURCE"
# The fixtures are copied into the scratch folder: the crash harness's children carry the path.
cp -r corpus/r0 "$SCRATCH/fixtures"
case $mode in
    adapter-cmd)
        # The stand-in adapter answers 5 requests (two rows), then hangs with a background child.
        "$DESKCHECK" r0 "${json[@]}" --adapter-cmd "bash $ADAPTER hang 5 $MARKER $SCRATCH/ready" --adapter-timeout-ms 600000 \
            --fixtures "$SCRATCH/fixtures" > "$SCRATCH/out" 2> "$SCRATCH/err" &
        pid=$!
        STARTED+=("$pid")
        wait_for_file "$SCRATCH/ready" 120 || fail "the adapter was never asked a 6th request"
        ;;
    real | crash)
        "$DESKCHECK" r0 "${json[@]}" "--$mode" --generated 1000 --fixtures "$SCRATCH/fixtures" > "$SCRATCH/out" 2> "$SCRATCH/err" &
        pid=$!
        STARTED+=("$pid")
        wait_for_workspace 120 || fail "no temporary workspace was made"
        sleep 0.3
        ;;
    bench)
        # The in-memory bench is quick: the signal is sent as soon as the handler is there, while
        # the 1,000 generated fixtures are made (rows so far: possibly none).
        "$DESKCHECK" r0 "${json[@]}" --generated 1000 --fixtures "$SCRATCH/fixtures" > "$SCRATCH/out" 2> "$SCRATCH/err" &
        pid=$!
        STARTED+=("$pid")
        wait_for_handler "$pid" 120 || fail "no SIGINT handler"
        ;;
    campaign)
        "$DESKCHECK" r0 campaign "${json[@]}" --cases 100000000 > "$SCRATCH/out" 2> "$SCRATCH/err" &
        pid=$!
        STARTED+=("$pid")
        wait_for_handler "$pid" 120 || fail "no SIGINT handler"
        sleep 0.5
        ;;
    *) fail "unknown mode $mode" ;;
esac
interrupt_and_wait "$pid" "$sig"
cat "$SCRATCH/err" >&2
head -c 3000 "$SCRATCH/out" >&2
echo >&2
expect_rc "$want_rc" "$RC" "r0 $mode after SIG$sig"
if [ "$format" = json ]; then
    grep -q "\"interrupted\": \"SIG$sig\"" "$SCRATCH/out" || fail "the JSON is not marked interrupted"
    case $mode in
        campaign) grep -q '"cases": [1-9]' "$SCRATCH/out" || fail "no cases counted in the JSON" ;;
        crash) grep -q '"crash_points": [1-9]' "$SCRATCH/out" || fail "no rows in the JSON" ;;
        bench) grep -q '"rows": ' "$SCRATCH/out" || fail "no rows member in the JSON" ;;
        *) grep -q '"fixture": ' "$SCRATCH/out" || fail "no rows in the JSON" ;;
    esac
else
    grep -q "^interrupted by SIG$sig after " "$SCRATCH/out" || fail "the output does not say interrupted"
    case $mode in
        campaign) grep -q "^[1-9][0-9]* cases run" "$SCRATCH/out" || fail "no cases counted" ;;
        bench) grep -q "^| fixture | failure point |" "$SCRATCH/out" || fail "no table printed" ;;
        *) grep -q "^| [a-z0-9-]* | " "$SCRATCH/out" || fail "no rows printed" ;;
    esac
fi
[ "$mode" = adapter-cmd ] && [ "$format" = text ] && { grep -q "| write-into-new-folder | step 2 |" "$SCRATCH/out" || fail "the two rows answered are not printed"; }
expect_tmpdir_empty "r0 $mode after SIG$sig"
expect_no_process "$MARKER" "r0 $mode after SIG$sig (the adapter)"
expect_no_process "$SCRATCH/" "r0 $mode after SIG$sig (a child of the crash harness)"
note "ok: r0 $mode, SIG$sig, $format"
