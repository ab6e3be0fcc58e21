#!/usr/bin/env bash
# Proves .clusterfuzzlite/build.sh here, without Docker: runs it with the environment OSS-Fuzz /
# ClusterFuzzLite gives it (clang, ASan + libFuzzer instrumentation, $LIB_FUZZING_ENGINE, a fresh
# $OUT and $WORK, $SRC = the folder holding this checkout), then runs every binary it produced over
# its unzipped seed corpus with -runs=0 (and the JSON target with its dictionary, which libFuzzer
# parses at start). Exit 0 when the build and every replay succeeded.
#
#   bash tools/cflite-local.sh            # build into a temp $OUT, replay, remove it
#   KEEP_OUT=1 bash tools/cflite-local.sh # keep $OUT and print where it is
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

export CC=clang CXX=clang++
export CFLAGS="-fsanitize=address,fuzzer-no-link" CXXFLAGS="-fsanitize=address,fuzzer-no-link"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
OUT="$(mktemp -d)"
WORK="$(mktemp -d)"
SRC="$(dirname "$repo")"
export OUT WORK SRC
cleanup() {
    rm -rf "$WORK"
    if [ -z "${KEEP_OUT:-}" ]; then rm -rf "$OUT"; else echo "cflite-local: \$OUT kept in $OUT" >&2; fi
}
trap cleanup EXIT

echo "cflite-local: build.sh with CC=$CC CXX=$CXX CXXFLAGS='$CXXFLAGS' LIB_FUZZING_ENGINE=$LIB_FUZZING_ENGINE OUT=$OUT SRC=$SRC" >&2
(cd "$repo" && bash .clusterfuzzlite/build.sh) >&2

status=0
count=0
for binary in "$OUT"/*; do
    name="$(basename "$binary")"
    [ -f "$binary" ] && [ -x "$binary" ] && [[ "$name" != *.* ]] || continue
    count=$((count + 1))
    corpus="$WORK/seeds/$name"
    mkdir -p "$corpus"
    if [ -f "$OUT/${name}_seed_corpus.zip" ]; then unzip -q -o "$OUT/${name}_seed_corpus.zip" -d "$corpus"; fi
    extra=()
    if [ -f "$OUT/$name.dict" ]; then extra+=("-dict=$OUT/$name.dict"); fi
    if "$binary" -runs=0 "${extra[@]}" "$corpus" >"$WORK/$name.log" 2>&1; then
        echo "cflite-local: $name: $(ls "$corpus" | wc -l) seeds replayed ($(grep -o 'Done [0-9]* runs' "$WORK/$name.log"))" >&2
    else
        echo "cflite-local: $name FAILED on its seed corpus:" >&2
        tail -30 "$WORK/$name.log" >&2
        status=1
    fi
done
if [ "$count" -eq 0 ]; then
    echo "cflite-local: build.sh produced no fuzz target in $OUT" >&2
    status=1
fi
echo "cflite-local: $count targets in \$OUT: $(cd "$OUT" && ls | tr '\n' ' ')" >&2
exit "$status"
