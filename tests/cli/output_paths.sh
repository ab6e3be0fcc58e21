# --out naming a regular file, a path under a regular file, or a folder that cannot be made:
# run, shrink, convert and nightly fail with one error naming the path and exit 5, and never say
# "written to" for a file that is not there. Written files are complete and leave no temporary
# file behind; a counterexample found under --mutation names it in its header.
source "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
touch afile
bad_dirs=("$SCRATCH/afile" "$SCRATCH/afile/sub" "/proc/deskcheck-no-such-folder/x")

# run: refused before the campaign when --out cannot be a folder...
for out in "afile" "afile/sub"; do
    "$DESKCHECK" run --cases 300 --mutation retry_unknown_once --out "$out" > out.txt 2> err.txt
    expect_rc 5 $? "run --out $out"
    grep -q "$out" err.txt || fail "run --out $out: the error does not name the path"
    grep -q "written to" out.txt && fail "run --out $out says 'written to'"
done
# ...and every write is checked after it (a folder that cannot be created).
"$DESKCHECK" run --cases 300 --mutation retry_unknown_once --out /proc/deskcheck-no-such-folder/x > out.txt 2> err.txt
expect_rc 5 $? "run --out /proc/..."
grep -q "cannot write a counterexample: /proc/deskcheck-no-such-folder/x" err.txt || fail "run: the write error does not name the path"
grep -q "written to" out.txt && fail "run says 'written to' for a file it could not write"
grep -q "NOT written" out.txt || fail "run does not say the counterexample was not written"

# A real counterexample to shrink, found under a mutation, not shrunk.
"$DESKCHECK" run --cases 300 --mutation retry_unknown_once --no-shrink --property no_resend_after_unknown --out ce > out.txt 2> err.txt
expect_rc 1 $? "run with a mutation"
grep -q "not shrunk (--no-shrink)" out.txt || fail "--no-shrink does not say the counterexample was not shrunk"
grep -q "shrunk from" out.txt && fail "--no-shrink prints a shrink"
file=$(ls ce/*.json | head -1)
[ -f "$file" ] || fail "run wrote no counterexample"
grep -q '"mutation": "retry_unknown_once"' "$file" || fail "the counterexample of a self-test does not name its mutation"
grep -q '"outcome": "holds"' "$file" || fail "the counterexample of a self-test does not say the tool as it is holds"
"$DESKCHECK" replay "$file" > replay.txt 2>&1
expect_rc 0 $? "replay of a self-test file without flags"
grep -q "with mutation retry_unknown_once: no_resend_after_unknown violated (the bug reproduces)" replay.txt ||
    fail "replay does not put the header's mutation back"
ls -a ce | grep -q '\.tmp-' && fail "run left a temporary file"

# shrink
for out in "afile/x" "$SCRATCH" "/proc/deskcheck-no-such-folder/x.json"; do
    "$DESKCHECK" shrink "$file" --property no_resend_after_unknown --mutation retry_unknown_once --out "$out" > out.txt 2> err.txt
    expect_rc 5 $? "shrink --out $out"
    grep -q "written to" out.txt && fail "shrink --out $out says 'written to'"
    [ "$(lines_of err.txt)" -le 2 ] || fail "shrink --out $out: more than the progress and one error line"
    grep -q -- "$out" err.txt || fail "shrink --out $out: the error does not name the path"
done
"$DESKCHECK" shrink "$file" --property no_resend_after_unknown --mutation retry_unknown_once --out shrunk/one.json > out.txt 2> err.txt
expect_rc 0 $? "shrink into a new folder"
grep -q "written to shrunk/one.json" out.txt || fail "shrink does not say where it wrote"
grep -q '"mutation": "retry_unknown_once"' shrunk/one.json || fail "shrink --mutation does not name its mutation in the header"
ls -a shrunk | grep -q '\.tmp-' && fail "shrink left a temporary file"
"$DESKCHECK" replay shrunk/one.json > /dev/null 2>&1
expect_rc 0 $? "replay of the shrunk self-test file"

# convert
for out in "${bad_dirs[@]:0:2}"; do
    "$DESKCHECK" convert "$file" --out "$out" > out.txt 2> err.txt
    expect_rc 5 $? "convert --out $out"
    grep -q -- "$out" err.txt || fail "convert --out $out: the error does not name the path"
    grep -q "wrote" out.txt && fail "convert --out $out says 'wrote'"
done

# nightly: refused before any work
mkdir -p checkout
make_checkout checkout
cd checkout
for out in "${bad_dirs[@]}"; do
    "$DESKCHECK" nightly --no-fuzz --campaign-cases 20 --seed 3 --out "$out" > out.txt 2> err.txt
    expect_rc 5 $? "nightly --out $out"
    grep -q -- "${out%/x}" err.txt || fail "nightly --out $out: the error does not name the path"
    grep -q "campaign round" err.txt && fail "nightly --out $out ran the campaign"
done
note "ok"
