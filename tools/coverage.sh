#!/usr/bin/env bash
# Line coverage of model/ by a property campaign (issue: the generator reaches all of model/).
#
#   bash tools/dc coverage [CASES] [SEED]     (default: 100000 cases, seed 1)
#
# Builds the `coverage` preset (g++ -O0 --coverage), runs `deskcheck run` on it, then gcov over
# model/*.cpp: per-file and total line coverage, and every line never executed, as FILE:LINE: text.
# Exit 0 when the total is at least 95 %, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-100000}"
seed="${2:-1}"
if [ ! -f build/coverage/build.ninja ] || [ CMakePresets.json -nt build/coverage/build.ninja ]; then
    cmake --preset coverage >&2
fi
cmake --build --preset coverage >&2
objects=build/coverage/model/CMakeFiles/deskcheck_model.dir
find build/coverage -name '*.gcda' -delete
# The campaigns the nightly runs: the property campaign under both rule sets, the R0 campaign, and
# mutate-rules over the observation table (the only caller of a mutated observation table).
for rules in current published; do
    echo "coverage: deskcheck run --cases $cases --seed $seed --rules $rules (coverage build)" >&2
    build/coverage/cli/deskcheck run --cases "$cases" --seed "$seed" --rules "$rules" --out build/coverage/counterexamples >/dev/null 2>&1 || true
done
echo "coverage: deskcheck r0 campaign --cases $cases --seed $seed; deskcheck r0" >&2
build/coverage/cli/deskcheck r0 campaign --cases "$cases" --seed "$seed" >/dev/null 2>&1 || true
build/coverage/cli/deskcheck r0 >/dev/null 2>&1 || true
echo "coverage: deskcheck mutate-rules --rules observation --seed $seed --no-shrink (the nightly's first mutate-rules part)" >&2
build/coverage/cli/deskcheck mutate-rules --rules observation --seed "$seed" --no-shrink --out build/coverage/mutate-rules >/dev/null 2>&1 || true
work=build/coverage/gcov
rm -rf "$work" && mkdir -p "$work"
(cd "$work" && gcov ../../../"$objects"/*.gcda >/dev/null 2>&1)
total=0
covered=0
unwinding=0
for src in model/*.cpp; do
    f="$work/$(basename "$src").gcov"
    name="$src"
    if [ ! -f "$f" ]; then
        # never executed at all: every line of it counts as missed (gcov writes no report)
        n=$(grep -cvE '^\s*(//.*)?$|^\s*[{}]\s*$|^#' "$src" || true)
        total=$((total + n))
        printf '%-28s %5d / %5d lines  0.0 %% (never executed)\n' "$name" 0 "$n"
        continue
    fi
    # gcov lines: "count:line:text"; '-' = not executable, '#####' = never executed, '=====' = only
    # reachable when an exception unwinds. A lone closing brace marked '=====' holds nothing but
    # the destructor calls of that unwinding (no statement of its own): counted apart, not as a line.
    read -r n c u < <(awk -F: '{ t = $0; sub(/^[^:]*:[^:]*:/, "", t) }
        $1 ~ /=====/ && t ~ /^[ \t]*}[ \t;]*$/ { u++; next }
        $1 !~ /-/ { n++; if ($1 !~ /#####|=====/) c++ } END { print n+0, c+0, u+0 }' "$f")
    total=$((total + n))
    covered=$((covered + c))
    unwinding=$((unwinding + u))
    printf '%-28s %5d / %5d lines  %s %%\n' "$name" "$c" "$n" "$(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.1f", n ? 100 * c / n : 100 }')"
done
pct=$(awk -v c="$covered" -v n="$total" 'BEGIN { printf "%.1f", n ? 100 * c / n : 100 }')
echo "model/ total: $covered / $total lines, $pct %"
echo "not counted: $unwinding closing braces whose only code is an exception's unwinding (gcov '=====')"
echo "never executed:"
for src in model/*.cpp; do
    f="$work/$(basename "$src").gcov"
    name="$src"
    [ -f "$f" ] || { echo "$name: (the whole file)"; continue; }
    awk -F: -v file="$name" '$1 ~ /#####|=====/ { line = $2; gsub(/ /, "", line); text = $0; sub(/^[^:]*:[^:]*:/, "", text);
        if ($1 ~ /=====/ && text ~ /^[ \t]*}[ \t;]*$/) next; print file ":" line ":" text }' "$f"
done
awk -v p="$pct" 'BEGIN { exit (p >= 95.0) ? 0 : 1 }'
