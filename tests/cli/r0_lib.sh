# Shared by the r0 process tests (tests/cli/r0_*.sh), after lib.sh: a private TMPDIR (deskcheck's
# temporary workspaces go there, so a test can assert none is left), a unique marker for the
# processes a test starts (so `ps` can tell whether any is left), and a stand-in adapter.
TMPDIR=$SCRATCH/tmp
export TMPDIR
mkdir -p "$TMPDIR"
MARKER="dc-r0-marker-$$-$RANDOM"
ADAPTER="$HERE/r0_fake_adapter.sh"

# On exit, also whatever a failing run left behind (a test run against a deskcheck that leaks):
# the processes whose command line holds the marker or the scratch folder, killed by pid.
kill_marked() {
    ps -eo pid=,args= > "$SCRATCH/ps-exit.txt" 2>/dev/null || return 0
    grep -F -e "$MARKER" -e "$SCRATCH/" "$SCRATCH/ps-exit.txt" | while read -r pid _; do kill -KILL "$pid" 2>/dev/null; done
}
trap 'kill_marked; cleanup' EXIT

# Fails when a process whose command line holds STRING (default: the marker) is alive.
expect_no_process() {
    local what=${1:-$MARKER} listing=$SCRATCH/ps.txt i
    for i in $(seq 50); do  # a killed process may need a moment to be gone from the table
        ps -eo pid=,stat=,args= > "$listing"
        grep -F -- "$what" "$listing" | grep -v ' Z' > "$SCRATCH/left.txt" || return 0
        sleep 0.1
    done
    cat "$SCRATCH/left.txt" >&2
    fail "$2: a process is left: $(head -1 "$SCRATCH/left.txt")"
}

# Fails when deskcheck left anything in its TMPDIR.
expect_tmpdir_empty() {
    [ -z "$(ls -A "$TMPDIR")" ] || fail "$1: temporary workspaces left: $(ls -A "$TMPDIR" | head -3 | tr '\n' ' ')"
}

# Waits until deskcheck has made a temporary workspace (the bench is running).
wait_for_workspace() {
    local tenths=$(( ${1:-120} * 10 ))
    until compgen -G "$TMPDIR/deskcheck-r0-*" > /dev/null; do
        sleep 0.05
        tenths=$((tenths - 1))
        [ $tenths -gt 0 ] || return 1
    done
}

# Waits until PID has its SIGINT handler (/proc/PID/status, SigCgt): a signal sent earlier would be
# lost (a background job of a script starts with SIGINT ignored).
wait_for_handler() {
    local tenths=$(( ${2:-120} * 10 )) cgt
    for _ in $(seq "$tenths"); do
        cgt=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null)
        [ -n "$cgt" ] && (( (16#$cgt >> 1) & 1 )) && return 0
        sleep 0.1
    done
    return 1
}

# Sends SIGNAL to PID (started in the background), waits at most 60 s for it; its exit code in RC.
interrupt_and_wait() {
    local pid=$1 sig=$2
    kill "-$sig" "$pid"
    for _ in $(seq 600); do alive "$pid" || break; sleep 0.1; done
    alive "$pid" && fail "deskcheck still runs 60 s after SIG$sig"
    wait "$pid"
    RC=$?
}

# One fixture whose apply request is larger than a pipe's buffer (64 KiB): a write that blocks
# when the adapter does not read.
make_big_fixture() {
    mkdir -p "$1"
    printf '{"format": "deskcheck-r0-fixture/1", "name": "big", "summary": "a 200 KB write",\n"files": [], "steps": [{"op": "file.write", "path": "big.txt", "bytes": "%s"}]}\n' \
        "$(head -c 200000 /dev/zero | tr '\0' x)" > "$1/big.json"
}
