# An adapter that starts a background child: at the normal end of the bench its whole process
# group is killed, so after deskcheck exits no process the adapter started is left. The same for
# children that leave the group (setsid) and a daemon (setsid, its parent gone): deskcheck is their
# subreaper and kills what it adopted.
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

"$DESKCHECK" r0 --adapter-cmd "bash $ADAPTER escape 0 $MARKER" --generated 1 > "$SCRATCH/out" 2> "$SCRATCH/err"
rc=$?
cat "$SCRATCH/err" >&2
expect_rc 1 "$rc" "the stand-in adapter with children that left its group"
expect_no_process "$MARKER" "after a normal end, children that called setsid"
note "ok"
