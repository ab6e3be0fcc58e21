# Crafted bad inputs (tests/data/hostile/, made by its make_hostile.py, plus inputs no repository
# can hold: a folder, a missing file, a FIFO, /dev/zero, 2 MiB, a compact document under the limit
# whose canonical form is over it) through replay, shrink and convert: each exits 2 with one line
# on stderr and nothing on stdout, within 2 s, in at most 200 MB of address space. The fuzz target
# fuzz_scenario_json ($2, its plain replay program) runs each without an invariant broken (a file
# whose only fault is a header property the CLI does not know decodes there), within the same bounds.
source "$(dirname "$0")/lib.sh"
FUZZ_JSON=$(readlink -f "$2")
inputs=()
for f in "$SOURCE"/tests/data/hostile/*.json; do inputs+=("$f"); done
[ ${#inputs[@]} -ge 60 ] || fail "only ${#inputs[@]} crafted inputs"

# Inputs made here.
mkdir "$SCRATCH/a-folder"
mkfifo "$SCRATCH/a-fifo"
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' '{' > "$SCRATCH/two-mib.json"
{   # 16 windows of 64 edits with 200-byte strings, written compactly: under 1 MiB, its canonical form over.
    text=$(head -c 200 /dev/zero | tr '\0' x)
    printf '{"format":"deskcheck-scenario/1","seed":1,"monitors":[{"id":1,"bounds":{"left":0,"top":0,"right":1920,"bottom":1080},"primary":true}],"windows":['
    id=1
    for w in $(seq 1 16); do
        [ "$w" -gt 1 ] && printf ','
        printf '{"id":%d,"pid":%d,"bounds":{"left":0,"top":0,"right":1600,"bottom":1000},"title":"%s","controls":[' "$w" $((100 + w)) "$text"
        for c in $(seq 0 63); do
            [ "$c" -gt 0 ] && printf ','
            printf '{"id":%d,"kind":"edit","role":"Edit","automation_id":"%s","name":"%s","value":"%s","bounds":{"left":10,"top":%d,"right":1500,"bottom":%d}}' \
                "$id" "$text" "$text" "$text" $((10 + c * 15)) $((20 + c * 15))
            id=$((id + 1))
        done
        printf ']}'
    done
    printf '],"apps":['
    for w in $(seq 1 16); do [ "$w" -gt 1 ] && printf ','; printf '{"pid":%d}' $((100 + w)); done
    printf '],"foreground":1,"steps":[{"kind":"type","window":1,"control":1,"text":"%s"}]}' "$text"
} > "$SCRATCH/canonical-over-the-limit.json"
[ "$(wc -c < "$SCRATCH/canonical-over-the-limit.json")" -lt 1048576 ] || fail "the compact document is over 1 MiB"
inputs+=("$SCRATCH/a-folder" "$SCRATCH/missing.json" "$SCRATCH/a-fifo" /dev/zero "$SCRATCH/two-mib.json"
         "$SCRATCH/canonical-over-the-limit.json")

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
checked=0
for input in "${inputs[@]}"; do
    name=$(basename "$input")
    for cmd in "replay" "replay --json" "shrink --property verdict_sound" "convert --out $SCRATCH/ce" "judge-snapshot"; do
        # An empty input is a crash file libFuzzer can write: convert runs it as fuzz_batch bytes.
        [ "$name" = a-fifo ] && { [ "${cmd%% *}" = convert ] || [ "$cmd" = judge-snapshot ]; } && continue
        began=$(now_ms)
        ( ulimit -v 204800; timeout 10 "$DESKCHECK" $cmd "$input" ) > "$SCRATCH/out" 2> "$SCRATCH/err"
        rc=$?
        took=$(( $(now_ms) - began ))
        [ "$rc" = 2 ] || fail "$cmd $name: exit $rc, expected 2: $(head -c 300 "$SCRATCH/err")"
        [ "$(lines_of "$SCRATCH/err")" = 1 ] || fail "$cmd $name: $(lines_of "$SCRATCH/err") lines on stderr: $(head -c 600 "$SCRATCH/err")"
        [ "$(wc -c < "$SCRATCH/err")" -le 1000 ] || fail "$cmd $name: a $(wc -c < "$SCRATCH/err")-byte error line"
        [ "$(tr -cd '\000-\010\013-\037' < "$SCRATCH/err" | wc -c)" = 0 ] || fail "$cmd $name: control bytes in the error"
        [ "$cmd" = "replay --json" ] && [ "$(cat "$SCRATCH/out")" = "[]" ] && : > "$SCRATCH/out"
        [ -s "$SCRATCH/out" ] && fail "$cmd $name: wrote to stdout: $(head -c 300 "$SCRATCH/out")"
        [ "$took" -le 2000 ] || fail "$cmd $name: took $took ms"
        checked=$((checked + 1))
    done
    if [ -f "$input" ]; then
        began=$(now_ms)
        ( ulimit -v 204800; timeout 10 "$FUZZ_JSON" "$input" ) > "$SCRATCH/out" 2>&1
        rc=$?
        took=$(( $(now_ms) - began ))
        [ "$rc" = 0 ] || fail "fuzz_scenario_json $name: exit $rc: $(tail -c 600 "$SCRATCH/out")"
        grep -q "^replay: 1 inputs ran" "$SCRATCH/out" || fail "fuzz_scenario_json did not run $name"
        [ "$took" -le 2000 ] || fail "fuzz_scenario_json $name: took $took ms"
    fi
done
grep -q "canonical form" <("$DESKCHECK" replay "$SCRATCH/canonical-over-the-limit.json" 2>&1) ||
    fail "the compact document is not refused for its canonical form"
note "ok: ${#inputs[@]} inputs, $checked command runs"
