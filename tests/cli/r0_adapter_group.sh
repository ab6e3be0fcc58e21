# An adapter that starts a background child: at the normal end of the bench its whole process
# group is killed, so after deskcheck exits no process the adapter started is left.
source "$(dirname "$0")/lib.sh"
source "$HERE/r0_lib.sh"
cd "$SOURCE"
"$DESKCHECK" r0 --adapter-cmd "bash $ADAPTER background 0 $MARKER" --generated 1 > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
cat "$SCRATCH/err" >&2
expect_rc 1 "$rc" "the stand-in adapter (does nothing: figures below 100 %)"
grep -q "^R0-residue" "$SCRATCH/out" || fail "no figures"
expect_no_process "$MARKER" "after a normal end"
expect_tmpdir_empty "after a normal end"
note "ok"
