// Shared by `deskcheck convert` and `deskcheck nightly`: finding the checkout, and turning a fuzz
// crash input into a counterexample file (DESIGN "Counterexamples": nothing a user must read stays
// binary).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "model/tool.h"

namespace deskcheck::cli {

// The checkout holding `corpus/` and `fuzz/`: `from` or the nearest of its parents (at most 16
// levels up); nullopt when there is none.
std::optional<std::filesystem::path> find_checkout(const std::filesystem::path& from);

// A Mutation by its name (to_string(Mutation)); nullopt when unknown.

struct Conversion {
    std::string error;        // non-empty: the input could not be read or decodes to nothing (one line)
    std::string write_error;  // non-empty: a counterexample was found but could not be written
    bool violated = false;    // false: no property is violated by it today (nothing written)
    std::string kind;         // "scenario JSON" or "fuzz_batch bytes"
    std::string property;
    std::string summary;      // one line
    std::string file;         // the counterexample written
    std::uint32_t original_steps = 0;
    std::uint32_t shrunk_steps = 0;
    std::uint32_t shrink_attempts = 0;
};

// Reads `crash` (fuzz_scenario_json input: a scenario document; otherwise fuzz_batch bytes; an
// input that looks like a scenario document -- JSON text naming "format" -- and does not
// decode is an error with the decoder's message, never read as bytes),
// runs it as the fuzz targets do (current rules, W-2 agent on) with every check, and when a
// property is violated shrinks it keeping that same property and writes it into `out_dir` under a
// fresh name, as a counterexample document (header: format, property, rules, seed, summary).
// A property in `known` is reported (violated, property, summary) but neither shrunk nor written:
// the nightly keeps one counterexample per property.
Conversion convert_crash(const std::filesystem::path& crash, const std::filesystem::path& out_dir,
                         const std::set<std::string>& known = {});

}  // namespace deskcheck::cli
