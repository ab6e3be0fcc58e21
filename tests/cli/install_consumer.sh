#!/usr/bin/env bash
# model/ installs as the CMake package `deskcheck`: `cmake --install` of this build tree into a
# scratch prefix, then a tiny consumer project (find_package(deskcheck), links deskcheck::model,
# includes the port and the rules) configures, builds and runs against it — with no path into
# the source tree.
#   bash tests/cli/install_consumer.sh DESKCHECK_BIN BUILD_DIR
set -euo pipefail
build_dir="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build_dir" --prefix "$scratch/prefix" >"$scratch/install.log"
test -f "$scratch/prefix/include/model/desktop.h" || { echo "FAIL: model/desktop.h not installed"; exit 1; }
test -f "$scratch/prefix/include/model/selection.h" || { echo "FAIL: model/selection.h not installed"; exit 1; }
if ls "$scratch/prefix/include" | grep -qv '^model$'; then
    echo "FAIL: more than model/ installed:"; ls "$scratch/prefix/include"; exit 1
fi

mkdir -p "$scratch/consumer"
cat >"$scratch/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(deskcheck_consumer LANGUAGES CXX)
find_package(deskcheck 0.1 CONFIG REQUIRED)
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE deskcheck::model)
CMAKE
cat >"$scratch/consumer/main.cpp" <<'CPP'
// A desktop helper's first line of code: the port, the rules, one judgement.
#include <cstdio>
#include "model/desktop.h"
#include "model/verdict.h"
int main() {
    const deskcheck::RuleSet* rules = deskcheck::find_rules("current");
    if (rules == nullptr) return 1;
    const deskcheck::Selection caret{3, 0};
    std::printf("rules %s, verdict %s, caret at %lld\n", std::string(rules->name).c_str(),
                std::string(deskcheck::to_string(deskcheck::Verdict::Unknown)).c_str(),
                static_cast<long long>(caret.start));
    return 0;
}
CPP
cmake -S "$scratch/consumer" -B "$scratch/consumer/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >"$scratch/configure.log" \
    || { cat "$scratch/configure.log"; echo "FAIL: the consumer does not configure"; exit 1; }
cmake --build "$scratch/consumer/build" >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; echo "FAIL: the consumer does not build"; exit 1; }
out="$("$scratch/consumer/build/consumer")"
[ "$out" = "rules current, verdict Unknown, caret at 3" ] || { echo "FAIL: the consumer printed: $out"; exit 1; }
echo "ok: find_package(deskcheck) gives deskcheck::model ($out)"
