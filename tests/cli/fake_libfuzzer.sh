#!/usr/bin/env bash
# A stand-in for a libFuzzer binary in the nightly's tests (no clang, no waiting for real fuzzing).
# Its name says which target it plays. With -merge=1 it copies the inputs of its second folder that
# the first lacks, as libFuzzer's merge does. Otherwise it writes three new inputs into the corpus
# folder (its last argument), prints libFuzzer's status line, and then
#   FAKE_FUZZ_MODE=quick (default): prints the final statistics and exits 0;
#   FAKE_FUZZ_MODE=crash: as fuzz_verdict, also leaves a crash artifact (in -artifact_prefix) that
#     no property explains, as a sanitizer finding does, and exits 1, as libFuzzer does on a crash;
#   FAKE_FUZZ_MODE=block: starts a worker (a `sleep`, as -fork starts workers), writes
#     "$FAKE_FUZZ_STATE/<target>.pids" (its pid and the worker's) and then
#     "$FAKE_FUZZ_STATE/<target>.ready", and waits until SIGINT or SIGTERM: then prints
#     "run interrupted" and the final statistics, and exits 72, as libFuzzer does. The worker is
#     left behind on purpose (a background job of a script ignores SIGINT): deskcheck must stop it.
# With FAKE_FUZZ_ARGS set (a folder), a fuzzing run (not a merge) writes its arguments there, one a
# line, as "<target>.args".
target=$(basename "$0")
merge=0
dirs=()
prefix=
for a in "$@"; do
    case "$a" in
        -merge=1) merge=1 ;;
        -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;;
        -*) ;;
        *) dirs+=("$a") ;;
    esac
done
if [ $merge = 1 ]; then
    for f in "${dirs[1]}"/*; do
        [ -f "$f" ] || continue
        [ -e "${dirs[0]}/$(basename "$f")" ] || cp "$f" "${dirs[0]}/"
    done
    echo "MERGE-OUTER: fake merge done"
    exit 0
fi
corpus=${dirs[${#dirs[@]}-1]}
[ -n "${FAKE_FUZZ_ARGS:-}" ] && printf '%s\n' "$@" > "$FAKE_FUZZ_ARGS/$target.args"
for i in 1 2 3; do printf 'new input %s %s' "$target" "$i" > "$corpus/new-$target-$i"; done
stats() {
    echo "#1234 DONE   cov: 42 ft: 77 corp: 5/100b exec/s: 100 rss: 30Mb"
    echo "stat::number_of_executed_units: 1234"
    echo "stat::average_exec_per_sec:     100"
    echo "stat::peak_rss_mb:              30"
}
echo "#2 INITED cov: 40 ft: 70 corp: 3/50b exec/s: 0 rss: 30Mb"
if [ "${FAKE_FUZZ_MODE:-quick}" = block ]; then
    sleep 600 &
    worker=$!
    echo "$$ $worker" > "${FAKE_FUZZ_STATE:?}/$target.pids"
    trap 'echo "==$$== libFuzzer: run interrupted; exiting"; stats; exit 72' INT TERM
    touch "$FAKE_FUZZ_STATE/$target.ready"
    while :; do
        sleep 600 &
        wait $!
    done
fi
if [ "${FAKE_FUZZ_MODE:-quick}" = crash ] && [ "$target" = fuzz_verdict ]; then
    echo "==$$==ERROR: AddressSanitizer: heap-buffer-overflow (made up by the stand-in)"
    printf 'x' > "${prefix}crash-0123456789abcdef"
    stats
    exit 1
fi
stats
exit 0
