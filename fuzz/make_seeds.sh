#!/usr/bin/env bash
# Regenerates the seed corpora corpus/<target>/ deterministically (never at build time: the files
# are committed). For each fuzz target:
#   1. fuzz_seed_writer writes COUNT candidates from fixed PRNG seeds (COUNT/4 JSON documents);
#   2. candidates that fail today are dropped and listed (a seed corpus is a regression test: it
#      must pass; a failing candidate is a finding to report, not a seed);
#   3. libFuzzer's -merge=1 -use_counters=0 keeps the candidates that add edges;
#   4. the kept candidates are copied as corpus/<target>/seed-NNNNN[.json] — an existing file is
#      never overwritten (delete the folder first for a full regeneration).
#
#   bash fuzz/make_seeds.sh [GCC_BUILD_DIR] [LIBFUZZER_BUILD_DIR] [COUNT]
#     GCC_BUILD_DIR       a DESKCHECK_FUZZ=OFF tree (default build/h-gcc)
#     LIBFUZZER_BUILD_DIR a DESKCHECK_FUZZ=ON tree  (default build/fuzz)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gcc_build="${1:-$repo/build/h-gcc}"
fuzz_build="${2:-$repo/build/fuzz}"
count="${3:-400}"
gcc_build="$(cd "$gcc_build" && pwd)"
fuzz_build="$(cd "$fuzz_build" && pwd)"
targets=(fuzz_batch fuzz_scenario_json fuzz_verdict fuzz_locator fuzz_observation fuzz_journal)

cmake --build "$gcc_build" --target fuzz_seed_writer "${targets[@]}" >&2
cmake --build "$fuzz_build" --target "${targets[@]}" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for target in "${targets[@]}"; do
    cand="$work/cand/$target"
    merged="$work/merged/$target"
    mkdir -p "$merged"
    n="$count"
    [ "$target" = fuzz_scenario_json ] && n=$((count / 4))  # readable, but 2-15 KB each
    "$gcc_build/fuzz/fuzz_seed_writer" "$target" "$cand" "$n"
    for f in "$cand"/*; do
        if ! "$gcc_build/fuzz/$target" "$f" >/dev/null 2>"$work/err"; then
            echo "make_seeds: $target candidate $(basename "$f") fails today, not a seed:" >&2
            grep -m2 -E "violated|invariant" "$work/err" >&2 || true
            rm "$f"
        fi
    done
    # In $work: a candidate that crashes only under the sanitizers leaves its crash file there.
    (cd "$work" && "$fuzz_build/fuzz/$target" -merge=1 -use_counters=0 "$merged" "$cand" >"$work/merge.log" 2>&1)
    declare -A by_hash=()
    for f in "$cand"/*; do by_hash["$(sha1sum <"$f" | cut -d' ' -f1)"]="$f"; done
    mkdir -p "$repo/corpus/$target"
    kept=0
    for m in "$merged"/*; do
        src="${by_hash[$(basename "$m")]:-}"
        [ -n "$src" ] || continue
        name="$(basename "$src")"
        dest="$repo/corpus/$target/seed-${name#cand-}"
        if [ ! -e "$dest" ]; then cp "$src" "$dest"; kept=$((kept + 1)); fi
    done
    unset by_hash
    echo "make_seeds: $target: $kept new seeds in corpus/$target/ ($(ls "$repo/corpus/$target" | wc -l) in all)" >&2
done
