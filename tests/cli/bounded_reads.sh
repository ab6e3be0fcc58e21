# replay, shrink and convert read at most the input limit + 1 byte: /dev/zero is refused at once
# ("larger than 1048576 bytes"), in little memory; a folder and a missing file get an error of
# their own, never "/: empty input"; a FIFO without a writer does not hang (it is empty).
source "$(dirname "$0")/lib.sh"
mkfifo "$SCRATCH/fifo"
check() {  # check WHAT EXPECTED-MESSAGE COMMAND...
    local what=$1 message=$2
    shift 2
    ( ulimit -v 204800; timeout 10 "$@" ) > "$SCRATCH/out" 2> "$SCRATCH/err"
    local rc=$?
    expect_rc 2 "$rc" "$what"
    [ "$(lines_of "$SCRATCH/err")" = 1 ] || fail "$what: not one line of error: $(head -c 300 "$SCRATCH/err")"
    grep -q -- "$message" "$SCRATCH/err" || fail "$what: expected '$message', got: $(cat "$SCRATCH/err")"
    case "$what" in *FIFO*) ;; *) grep -q "empty input" "$SCRATCH/err" && fail "$what: says empty input" ;; esac
    return 0
}
for cmd in "replay" "shrink --property verdict_sound" "convert --out $SCRATCH/ce"; do
    check "$cmd /dev/zero" "/dev/zero: larger than 1048576 bytes" "$DESKCHECK" $cmd /dev/zero
    check "$cmd FOLDER" "$SCRATCH: is a folder, not a file" "$DESKCHECK" $cmd "$SCRATCH"
    check "$cmd MISSING" "$SCRATCH/missing.json: no such file" "$DESKCHECK" $cmd "$SCRATCH/missing.json"
done
check "replay FIFO" "$SCRATCH/fifo: " "$DESKCHECK" replay "$SCRATCH/fifo"
head -c 1048577 /dev/zero | tr '\0' ' ' > "$SCRATCH/big.json"
check "replay 1 MiB + 1" "big.json: larger than 1048576 bytes" "$DESKCHECK" replay "$SCRATCH/big.json"
note "ok"
