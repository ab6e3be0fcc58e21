#!/usr/bin/env bash
# `deskcheck r0 recover` as a hostile user meets it (SPEC R-7, R-9): a folder that is not a
# workspace, a FIFO or a link for a journal, a link for files/, a folder below the root swapped for a
# link to another place after the task journaled, a journal past its line bound, intents naming
# paths outside the root, and a failed undo that must stay reported on every later recovery.
# Every case: the right exit code, one line naming what, and nothing changed outside the workspace.
source "$(dirname "$0")/lib.sh" "$1"
cd "$SCRATCH"

# A workspace as the tool leaves it after a crash: the journal of a task `r0 serve` ran (its files
# under DIR/files), without its last line (`done`), so recovery has the task to undo.
make_workspace() {
    local dir=$1
    mkdir -p "$dir/files"
    printf '%s\n' '{"id":1,"op":"apply","root":"'"$dir/files"'","steps":[{"op":"file.write","path":"out/deep/a.txt","bytes":"alpha"},{"op":"file.write","path":"out/b.txt","bytes":"beta"}],"fail_at":null,"allow_irreversible":false}' \
        | "$DESKCHECK" r0 serve > "$dir/serve.out" || fail "r0 serve"
    grep -q '"finished":true' "$dir/serve.out" || fail "r0 serve did not finish the task: $(cat "$dir/serve.out")"
    head -n -1 "$dir/files.journal.jsonl" > "$dir/journal.jsonl"
    rm "$dir/files.journal.jsonl" "$dir/serve.out"
    [ -f "$dir/files/out/deep/a.txt" ] || fail "the task wrote nothing"
}

# An outside tree that a followed link would change: the same names the task used.
make_outside() {
    mkdir -p "$1/deep"
    printf 'outside a\n' > "$1/deep/a.txt"
    printf 'outside b\n' > "$1/b.txt"
    chmod 0640 "$1/b.txt"
}
tree_of() { (cd "$1" && find . -printf '%p %y %m %s\n' | sort && find . -type f -exec sha256sum {} + | sort); }

note "a folder below the root swapped for a link after the task journaled: refused, named, exit 1"
make_workspace ws1
make_outside outside1
before=$(tree_of outside1)
mv ws1/files/out ws1/moved-away
ln -s "$SCRATCH/outside1" ws1/files/out
"$DESKCHECK" r0 recover ws1 > out1 2> err1
rc=$?
expect_rc 1 $rc "recover through a link"
[ "$(tree_of outside1)" = "$before" ] || fail "the tree behind the link changed: $(diff <(echo "$before") <(tree_of outside1))"
grep -q "crosses_a_symbolic_link" err1 || fail "the message does not name the link: $(cat err1)"
grep -q "step 2" err1 || fail "the message does not name the step: $(cat err1)"
grep -q "out/b.txt" err1 || fail "the message does not name the path: $(cat err1)"
[ "$(wc -l < err1)" -eq 1 ] || fail "more than one line: $(cat err1)"

note "the failed undo stays reported on a second recovery, and succeeds once the link is gone"
"$DESKCHECK" r0 recover ws1 > out2 2> err2
expect_rc 1 $? "second recovery"
grep -q "crosses_a_symbolic_link" err2 || fail "the second recovery forgot the failed undo: $(cat err2)"
[ "$(tree_of outside1)" = "$before" ] || fail "the tree behind the link changed on the second recovery"
rm ws1/files/out && mv ws1/moved-away ws1/files/out
"$DESKCHECK" r0 recover ws1 > out3 2> err3
expect_rc 0 $? "recovery once the link is gone: $(cat err3)"
[ -z "$(ls -A ws1/files)" ] || fail "recovery left: $(find ws1/files)"

note "the root (files/) or the journal being a link, a FIFO journal: exit 2 before any change"
make_workspace ws2
make_outside outside2
before=$(tree_of outside2)
mv ws2/files ws2/real-files
ln -s "$SCRATCH/outside2" ws2/files
"$DESKCHECK" r0 recover ws2 > /dev/null 2> err
expect_rc 2 $? "files/ is a link"
grep -q "symbolic link" err || fail "files/ link not named: $(cat err)"
[ "$(tree_of outside2)" = "$before" ] || fail "the tree behind files/ changed"
rm ws2/files && mv ws2/real-files ws2/files
cp ws2/journal.jsonl saved.jsonl
rm ws2/journal.jsonl && ln -s "$SCRATCH/saved.jsonl" ws2/journal.jsonl
"$DESKCHECK" r0 recover ws2 > /dev/null 2> err
expect_rc 2 $? "journal.jsonl is a link"
grep -q "journal.jsonl: is a symbolic link" err || fail "journal link not named: $(cat err)"
[ -f ws2/files/out/b.txt ] || fail "recovery acted although the journal was a link"
rm ws2/journal.jsonl && mkfifo ws2/journal.jsonl
timeout 20 "$DESKCHECK" r0 recover ws2 > /dev/null 2> err
rc=$?
[ $rc -ne 124 ] || fail "recover blocked on a FIFO journal"
expect_rc 2 $rc "FIFO journal"
grep -q "not a regular file" err || fail "FIFO journal not named: $(cat err)"
[ -p ws2/journal.jsonl ] || fail "the FIFO was replaced"

note "folders that are not workspaces: exit 2, nothing created"
for dir in "$SCRATCH/missing" /etc /proc/self "$SCRATCH"; do
    "$DESKCHECK" r0 recover "$dir" > /dev/null 2> err
    expect_rc 2 $? "recover $dir"
    grep -q "not a workspace\|no such folder" err || fail "recover $dir: $(cat err)"
done
[ ! -e /etc/journal.jsonl ] || fail "/etc/journal.jsonl was created"
[ ! -e "$SCRATCH/journal.jsonl" ] || fail "a journal was created in a folder that is not a workspace"
[ ! -e "$SCRATCH/missing" ] || fail "the missing folder was created"

note "a journal past its line bound: exit 2, named"
mkdir -p ws3/files
yes '{"task":"t","step":1,"op":"file.mkdir","status":"failed","error":"x"}' | head -n 100001 > ws3/journal.jsonl
"$DESKCHECK" r0 recover ws3 > /dev/null 2> err
expect_rc 2 $? "journal of 100001 lines"
grep -q "more than 100000 lines" err || fail "line bound not named: $(cat err)"

note "intents naming paths outside the root are failures, never undone"
make_workspace ws4
mkdir -p "$SCRATCH/victim" && printf 'keep\n' > "$SCRATCH/victim/a.txt"
sed 's|"path":"out/b.txt"|"path":"../../victim/a.txt"|' ws4/journal.jsonl > ws4/j && mv ws4/j ws4/journal.jsonl
grep -q 'victim' ws4/journal.jsonl || fail "the test did not rewrite the journal"
"$DESKCHECK" r0 recover ws4 > /dev/null 2> err
rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "an intent naming ../ : exit $rc, expected 1 or 2: $(cat err)"
[ "$(cat "$SCRATCH/victim/a.txt")" = "keep" ] || fail "the file outside the root changed"
echo "ok"
