# An adapter that never reads its stdin, sent a request larger than a pipe's buffer: the write has
# the request's deadline too, so deskcheck ends within --adapter-timeout-ms with exit 2 and a
# message naming the adapter, and the adapter's whole group is killed (never a hang).
source "$(dirname "$0")/lib.sh"
source "$HERE/r0_lib.sh"
cd "$SCRATCH"
make_big_fixture "$SCRATCH/fixtures"
start=$SECONDS
timeout 30 "$DESKCHECK" r0 --adapter-cmd "bash -c 'exec -a $MARKER sleep 1000'" --adapter-timeout-ms 1000 \
    --fixtures "$SCRATCH/fixtures" --generated 0 > out 2> err
rc=$?
cat err >&2
[ "$rc" -ne 124 ] || fail "deskcheck hung on an adapter that does not read (killed by timeout after 30 s)"
expect_rc 2 "$rc" "an adapter that does not read its stdin"
[ $((SECONDS - start)) -le 15 ] || fail "took $((SECONDS - start)) s for a 1000 ms timeout"
grep -qF "adapter \`bash -c 'exec -a $MARKER sleep 1000'\`, request {\"id\":1,\"op\":\"apply\"" err || fail "the message does not name the adapter and the request"
grep -q "did not read the request within 1000 ms (the adapter was killed)" err || fail "the message does not say what happened"
[ "$(lines_of err)" -eq 1 ] || fail "more than one line of error"
expect_no_process "$MARKER" "after the timeout"
expect_tmpdir_empty "after the timeout"
note "ok: does not read"

# An adapter that closes its stdin: the write fails with EPIPE, never a SIGPIPE that kills deskcheck
# (exit 141); a named failure, exit 2, the adapter killed. (A guard: the landed code did this too.)
"$DESKCHECK" r0 --adapter-cmd "exec 0<&-; bash -c 'exec -a $MARKER-closed sleep 1000'" --fixtures "$SCRATCH/fixtures" --generated 0 > out 2> err
rc=$?
cat err >&2
expect_rc 2 "$rc" "an adapter that closed its stdin"
grep -q "the adapter closed its stdin (exited?) before the request was sent" err || fail "the message does not say the adapter closed its stdin"
expect_no_process "$MARKER" "after an adapter closed its stdin"
note "ok: closed stdin"
