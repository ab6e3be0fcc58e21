#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of deskcheck's fuzz targets (fuzz/). Runs inside the image of
# .clusterfuzzlite/Dockerfile, or here through tools/cflite-local.sh. Honours the OSS-Fuzz
# environment: $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT $SRC (and $WORK if set).
#
# The targets link only model/, sim/, checks/, harness/ and header-only nlohmann/json, so
# they build with OSS-Fuzz's clang + libc++; the Boost / RapidCheck suites and the CLI are off
# (DESKCHECK_BUILD_TESTS=OFF DESKCHECK_BUILD_CLI=OFF). Per target, $OUT gets: the binary, <target>_seed_corpus.zip (from
# corpus/<target>/), <target>.options and, for the JSON target, its dictionary.

# The source tree: the working directory (the Dockerfile's WORKDIR), else $SRC/deskcheck.
repo="$PWD"
if [ ! -f "$repo/fuzz/CMakeLists.txt" ]; then
    repo="$SRC/deskcheck"
fi
build="${WORK:-$(mktemp -d)}/deskcheck-build"
targets=(fuzz_batch fuzz_scenario_json fuzz_verdict fuzz_locator fuzz_observation fuzz_journal)

generator=()
if command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
fi

# libFuzzer builds leave the standard library's and nlohmann/json's functions out of the coverage
# counters (fuzz/coverage_ignorelist.txt says why); coverage and other engines' builds are as given.
cxxflags="$CXXFLAGS"
if [[ "$CXXFLAGS" == *fuzzer-no-link* ]]; then
    cxxflags="$CXXFLAGS -fsanitize-coverage-ignorelist=$repo/fuzz/coverage_ignorelist.txt"
fi

# No CMAKE_BUILD_TYPE: the flags are exactly $CXXFLAGS (sanitizers, -O1, coverage...); the project
# is C++ only, so $CC and $CFLAGS have nothing to compile.
# Warnings stay warnings here: a newer clang must not break the fuzzing build.
cmake -S "$repo" -B "$build" "${generator[@]}" \
    -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$cxxflags" \
    -DCMAKE_BUILD_TYPE= \
    -DDESKCHECK_BUILD_TESTS=OFF -DDESKCHECK_BUILD_CLI=OFF -DDESKCHECK_WERROR=OFF \
    -DDESKCHECK_FUZZ=ON -DDESKCHECK_FUZZ_LINK_FLAGS="$LIB_FUZZING_ENGINE"
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"

# Zips the files of a folder (flat) into an archive; zip(1) when present, else Python's zipfile.
zip_folder() {
    local folder="$1" archive="$2"
    rm -f "$archive"
    if command -v zip >/dev/null 2>&1; then
        (cd "$folder" && zip -q -j "$archive" ./*)
    else
        python3 - "$folder" "$archive" <<'PY'
import os, sys, zipfile
folder, archive = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(folder)):
        z.write(os.path.join(folder, name), name)
PY
    fi
}

for target in "${targets[@]}"; do
    cp "$build/fuzz/$target" "$OUT/"
    cp "$repo/fuzz/$target.options" "$OUT/"
    if [ -d "$repo/corpus/$target" ] && [ -n "$(ls -A "$repo/corpus/$target")" ]; then
        zip_folder "$repo/corpus/$target" "$OUT/${target}_seed_corpus.zip"
    fi
done
cp "$repo/fuzz/fuzz_scenario_json.dict" "$repo/fuzz/fuzz_observation.dict" "$repo/fuzz/fuzz_journal.dict" "$OUT/"
