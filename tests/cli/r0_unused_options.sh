# Options an r0 mode does not use are exit 2, one line naming the option and the mode (never
# silently ignored); `--adapter-cmd ""` is exit 2, never "measure deskcheck itself".
source "$(dirname "$0")/lib.sh"
source "$HERE/r0_lib.sh"
cd "$SOURCE"
# EXPECTED-TEXT ARGS...
refused() {
    local want=$1
    shift
    timeout 120 "$DESKCHECK" r0 "$@" > "$SCRATCH/out" 2> "$SCRATCH/err"
    local rc=$?
    expect_rc 2 "$rc" "r0 $*"
    [ "$(lines_of "$SCRATCH/err")" -eq 1 ] || { cat "$SCRATCH/err" >&2; fail "r0 $*: not one line of error"; }
    grep -qF -- "$want" "$SCRATCH/err" || fail "r0 $*: the message lacks '$want': $(cat "$SCRATCH/err")"
    [ ! -s "$SCRATCH/out" ] || fail "r0 $*: printed a result"
}
refused '--adapter-cmd is empty' --adapter-cmd ""
refused '--adapter-cmd is empty' --adapter-cmd "   "
refused '--adapter is not used by r0 --real' --real --adapter naive
refused '--adapter is not used by r0 --real' --real --adapter deskcheck
refused '--adapter is not used by r0 --adapter-cmd' --adapter-cmd "bash $ADAPTER ok" --adapter naive
refused '--adapter is not used by r0 --crash' --crash --adapter naive
refused '--policy is not used by r0 --real' --real --policy forget-folders
refused '--policy is not used by r0 --crash' --crash --policy forget-folders
refused '--adapter-cmd is not used by r0 --crash' --crash --adapter-cmd "bash $ADAPTER ok"
refused '--adapter-timeout-ms is not used by r0 --real' --real --adapter-timeout-ms 100
refused '--adapter-timeout-ms is not used by r0 (the bench)' --adapter-timeout-ms 100
refused '--adapter-timeout-ms is not used by r0 --crash' --crash --adapter-timeout-ms 100
refused '--adapter-timeout-ms must lie in 1..600000' --adapter-cmd "bash $ADAPTER ok" --adapter-timeout-ms 0
refused '--adapter-timeout-ms must lie in 1..600000' --adapter-cmd "bash $ADAPTER ok" --adapter-timeout-ms 700000
refused '--real and --crash are two modes' --real --crash
refused '--seed is not used with --generated 0' --generated 0 --seed 3
refused '--seed is not used with --generated 0' --real --generated 0 --seed 3
refused "r0 campaign: unknown option '--generated'" campaign --generated 3
refused "r0 campaign: unknown option '--fixtures'" campaign --fixtures corpus/r0
refused 'r0 serve: unexpected argument' serve --json
expect_tmpdir_empty "after the refusals"
note "ok"
