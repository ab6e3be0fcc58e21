# Adapter answers carry the request's id (schema/r0-adapter-2): a missing or wrong id, two answers
# to one request, an answer after the last one are protocol errors — exit 2, one line naming the
# adapter, the request and what arrived, the adapter killed. `deskcheck r0 serve` echoes ids and
# rejects a request without one.
source "$(dirname "$0")/lib.sh"
source "$HERE/r0_lib.sh"
cd "$SOURCE"
# MODE K EXPECTED...
check() {
    local mode=$1 k=$2
    shift 2
    "$DESKCHECK" r0 --adapter-cmd "bash $ADAPTER $mode $k $MARKER" --generated 0 > "$SCRATCH/out" 2> "$SCRATCH/err"
    local rc=$? want
    cat "$SCRATCH/err" >&2
    expect_rc 2 "$rc" "adapter mode $mode"
    [ "$(lines_of "$SCRATCH/err")" -eq 1 ] || fail "$mode: more than one line of error"
    grep -qF "adapter \`bash $ADAPTER $mode $k $MARKER\`" "$SCRATCH/err" || fail "$mode: the message does not name the adapter"
    for want in "$@"; do grep -qF -- "$want" "$SCRATCH/err" || fail "$mode: the message lacks: $want"; done
    expect_no_process "$MARKER" "adapter mode $mode"
    expect_tmpdir_empty "adapter mode $mode"
}
check twice 3 "protocol error: a line arrived while no request was outstanding (after the answer to request 3): {\"id\":3,"
check twice-late 3 "protocol error: "
check wrong-id 2 'request {"id":2,' 'protocol error: the answer carries "id" 3, not the request'"'"'s 2: {"id":3,'
check no-id 1 'request {"id":1,' 'protocol error: the answer has no "id"'
check at-end 0 "protocol error: a line arrived while no request was outstanding (after the answer to request"

# deskcheck r0 serve: ids echoed; a request without one is rejected.
root=$SCRATCH/served
mkdir -p "$root"
printf '%s\n' '{"id":7,"op":"journal","root":"'"$root"'"}' '{"op":"journal","root":"'"$root"'"}' |
    "$DESKCHECK" r0 serve > "$SCRATCH/served.out"
sed -n 1p "$SCRATCH/served.out" | grep -q '^{"id":7,"lines":' || fail "r0 serve does not echo the id: $(sed -n 1p "$SCRATCH/served.out")"
sed -n 2p "$SCRATCH/served.out" | grep -q '"error":"a request needs an \\"id\\"' || fail "r0 serve takes a request without an id: $(sed -n 2p "$SCRATCH/served.out")"
note "ok"
