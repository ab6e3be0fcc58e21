# R-9: an output is only ever written over a regular file. Every output option of every command
# (replay --html, shrink --out, run --out, convert --out, mutate-rules --out, nightly --out)
# pointed at a character device, a FIFO and a symbolic link (to /proc/self/fd/1, and for a folder
# option also to a real folder) exits 5 with one line naming the target, and leaves the target
# as it was (still a device, still a FIFO, still the same link). So do the names a command picks
# inside its --out folder (a counterexample, its timeline page) when something that is not a
# regular file holds them: those are refused at the write itself.
#
# As root, the device is first a node of our own (mknod, the numbers of /dev/null): only when
# every command has left it alone are the real /dev/null and /dev/full tried, so that a
# regression breaks the scratch node, never the machine's devices.
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
ce=$SOURCE/corpus/regressions/b3-post-visible-then-dependent-step-proceeds.json
[ -f "$ce" ] || fail "no regression file to replay: $ce"
property=$(grep -o '"property": *"[a-z_]*"' "$ce" | head -1 | sed 's/.*: *"\(.*\)"/\1/')
[ -n "$property" ] || fail "no property in $ce"

mkfifo fifo
ln -s /proc/self/fd/1 link
mkdir realdir
ln -s realdir dirlink
devices=()
if [ "$(id -u)" -eq 0 ] && mknod node c 1 3 2>/dev/null; then
    devices+=("$SCRATCH/node")
else
    note "not root (or no mknod): the scratch device node is skipped"
fi

# kind PATH: what a target is, never following a link.
kind() {
    if [ -L "$1" ]; then echo "link->$(readlink "$1")"
    elif [ -c "$1" ]; then echo "chardev $(stat -c '%t:%T' "$1")"
    elif [ -p "$1" ]; then echo fifo
    elif [ -d "$1" ]; then echo folder
    elif [ -f "$1" ]; then echo file
    else echo none
    fi
}

# refused WHAT TARGET CMD...: CMD exits 5, says one line naming TARGET on stderr, TARGET unchanged.
refused() {
    local what=$1 target=$2 before after rc
    shift 2
    before=$(kind "$target")
    "$@" > out.txt 2> err.txt
    rc=$?
    after=$(kind "$target")
    [ "$after" = "$before" ] || fail "$what: $target was $before, is now $after"
    [ $rc -eq 5 ] || { cat err.txt >&2; fail "$what: exit $rc, expected 5"; }
    grep -qF -- "$target" err.txt || { cat err.txt >&2; fail "$what: the error does not name $target"; }
    [ "$(lines_of err.txt)" -eq 1 ] || { cat err.txt >&2; fail "$what: not one line of error"; }
    grep -q "written to" out.txt err.txt && fail "$what: says 'written to'"
    return 0
}

file_targets() { echo "$@" "$SCRATCH/fifo" "$SCRATCH/link"; }
dir_targets() { echo "$@" "$SCRATCH/fifo" "$SCRATCH/link" "$SCRATCH/dirlink"; }

mkdir -p checkout
make_checkout checkout

every_option() {
    local t
    for t in $(file_targets "$@"); do
        refused "replay --html $t" "$t" "$DESKCHECK" replay "$ce" --html "$t"
        refused "shrink --out $t" "$t" "$DESKCHECK" shrink "$ce" --property "$property" --out "$t"
    done
    for t in $(dir_targets "$@"); do
        refused "run --out $t" "$t" "$DESKCHECK" run --cases 5 --out "$t"
        refused "convert --out $t" "$t" "$DESKCHECK" convert "$ce" --out "$t"
        refused "mutate-rules --out $t" "$t" "$DESKCHECK" mutate-rules --rules observation --cases 5 --out "$t"
        refused "nightly --out $t" "$t" bash -c 'cd checkout && exec "$@"' - \
            "$DESKCHECK" nightly --no-fuzz --campaign-cases 5 --seed 3 --out "$t"
    done
    [ "$(readlink "$SCRATCH/link")" = /proc/self/fd/1 ] || fail "the link was changed"
    [ -d realdir ] && [ -z "$(ls -A realdir)" ] || fail "something was written through the folder link"
}

every_option "${devices[@]}"

# Names picked inside --out: a counterexample name and its page name held by a FIFO and a link.
"$DESKCHECK" run --cases 300 --mutation retry_unknown_once --property no_resend_after_unknown --no-shrink --out found > out.txt 2> err.txt
expect_rc 1 $? "run with a mutation"
name=$(ls found | grep '\.json$' | head -1)
[ -n "$name" ] || fail "run wrote no counterexample"
# refuses_held_name HOLDER NAME: with only a HOLDER (fifo or link) at again/NAME, the same run
# exits 5 naming it and leaves it as it was.
refuses_held_name() {
    local holder=$1 target=again/$2 before rc
    rm -rf again && mkdir again
    if [ "$holder" = fifo ]; then mkfifo "$target"; else ln -s /proc/self/fd/1 "$target"; fi
    before=$(kind "$target")
    "$DESKCHECK" run --cases 300 --mutation retry_unknown_once --property no_resend_after_unknown --no-shrink --out again > out.txt 2> err.txt
    rc=$?
    [ "$(kind "$target")" = "$before" ] || fail "run replaced the $holder at $target"
    expect_rc 5 $rc "run with a $holder at $target"
    grep -q "$target: exists and is a" err.txt || { cat err.txt >&2; fail "run does not name the $holder at $target"; }
    ls -a again | grep -q '\.tmp-' && fail "a temporary file was left behind"
    return 0
}
for holder in fifo link; do
    refuses_held_name $holder "$name"
    refuses_held_name $holder "${name%.json}.html"
    [ -f "again/$name" ] || fail "the counterexample itself was not written"
done

# A regular file is still replaced, through a temporary file in its folder.
echo old > page.html
"$DESKCHECK" replay "$ce" --html page.html > /dev/null 2> err.txt
rc=$?
[ $rc -le 1 ] || { cat err.txt >&2; fail "replay --html over a regular file: exit $rc"; }
grep -q "<html" page.html || fail "replay --html did not replace the regular file"
ls -a | grep -q '\.tmp-' && fail "a temporary file was left behind"

# The machine's devices, once the scratch node proved they are left alone.
if [ "${#devices[@]}" -gt 0 ]; then
    every_option /dev/null /dev/full
    [ -c /dev/null ] && [ -c /dev/full ] || fail "/dev/null or /dev/full is no longer a character device"
fi
note "ok"
