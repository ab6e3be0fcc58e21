# Shared by the CLI tests (tests/cli/*.sh, label `cli`): bash and coreutils only. Each test gets
# the deskcheck binary as $1; it runs in a scratch folder of its own, removed at exit, and kills
# whatever it started in the background if it fails half way.
set -u

DESKCHECK=$(readlink -f "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(cd "$HERE/../.." && pwd)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/deskcheck-cli.XXXXXX")
STARTED=()

# On every exit: what the test started, and the stand-in libFuzzers (each leads its own process
# group) with their workers, are killed; the scratch folder is removed unless KEEP_SCRATCH is set.
cleanup() {
    local p f leader worker
    for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
    for f in "$SCRATCH"/state/*.pids; do
        [ -f "$f" ] || continue
        read -r leader worker < "$f"
        alive "$leader" && kill -KILL -- "-$leader" 2>/dev/null
        alive "$worker" && kill -KILL "$worker" 2>/dev/null
    done
    [ -n "${KEEP_SCRATCH:-}" ] && echo "scratch kept: $SCRATCH" >&2 || rm -rf "$SCRATCH"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
note() { echo "-- $*" >&2; }

# expect_rc WANT GOT WHAT
expect_rc() { [ "$2" -eq "$1" ] || fail "$3: exit $2, expected $1"; }

# Waits, at most SECONDS (default 120), until FILE exists / FILE holds a line matching PATTERN.
wait_for_file() {
    local tenths=$(( ${2:-120} * 10 ))
    until [ -e "$1" ]; do
        sleep 0.1
        tenths=$((tenths - 1))
        [ $tenths -gt 0 ] || return 1
    done
}
wait_for_line() {
    local tenths=$(( ${3:-120} * 10 ))
    until grep -q -- "$2" "$1" 2>/dev/null; do
        sleep 0.1
        tenths=$((tenths - 1))
        [ $tenths -gt 0 ] || return 1
    done
}

# A process that exists and is not a zombie.
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

# A checkout of our own (corpus/, fuzz/), so that nightlies never touch the real corpus.
make_checkout() {
    local c=$1 t
    for t in fuzz_batch fuzz_scenario_json fuzz_verdict fuzz_locator fuzz_observation fuzz_journal regressions; do mkdir -p "$c/corpus/$t"; done
    mkdir -p "$c/fuzz"
    printf 'seed input one' > "$c/corpus/fuzz_batch/seed-one"
    printf 'seed input two' > "$c/corpus/fuzz_batch/seed-two"
}

# A "fuzz build" whose six targets are tests/cli/fake_libfuzzer.sh (see there).
make_fake_fuzz_build() {
    local t
    mkdir -p "$1/fuzz"
    for t in fuzz_batch fuzz_scenario_json fuzz_verdict fuzz_locator fuzz_observation fuzz_journal; do ln -s "$HERE/fake_libfuzzer.sh" "$1/fuzz/$t"; done
}

# Lines of a file (for "one line of error").
lines_of() { wc -l < "$1" | tr -d ' '; }
