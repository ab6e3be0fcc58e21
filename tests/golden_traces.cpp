// S-1 across compilers: a fixed set of scenarios — every file of corpus/regressions/ and the first
// cases of the PRNG builder at a fixed seed — run with the trace on; each gets a hash (FNV-1a, 64
// bits) of its canonical JSON, its trace text and the tool's report. The hashes are committed in
// tests/data/golden_trace_hashes.txt; the g++ build (ctest --preset default) and the clang build
// (ctest --preset fuzz, or any plain clang build of this target) must both reproduce them.
// Plain C++ (no Boost): it builds with any compiler.
//
//   golden_traces CHECKOUT            compare; exit 1 naming every scenario whose hash differs
//   golden_traces CHECKOUT --write    rewrite the file (after a deliberate change of the sim, the
//                                     builder or the tool: say so in the commit)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "harness/campaign.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/run.h"
#include "sim/build.h"
#include "sim/scenario_json.h"
#include "sim/trace.h"

namespace {

using namespace deskcheck;
namespace fs = std::filesystem;

constexpr std::uint64_t builder_seed = 0x601d;
constexpr std::uint32_t builder_cases = 24;
constexpr const char* hashes_file = "tests/data/golden_trace_hashes.txt";

std::uint64_t fnv1a(std::uint64_t hash, const std::string& text) {
    for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

std::string hash_of(const sim::Scenario& s) {
    props::RunOptions o;
    o.rules = &props::rules_for(s);
    o.agent_retries = true;
    o.trace = true;
    const props::RunResult run = props::run_scenario(s, o);
    std::uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv1a(h, sim::encode_scenario_text(s));
    h = fnv1a(h, sim::to_text(run.trace()));
    h = fnv1a(h, props::report_fingerprint(run));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return hex;
}

std::map<std::string, std::string> compute(const fs::path& checkout, std::string& error) {
    std::map<std::string, std::string> out;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(checkout / "corpus" / "regressions")) {
        if (e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const auto decoded = sim::decode_document(text.str());
        if (!std::holds_alternative<sim::ScenarioDocument>(decoded)) {
            error = f.string() + ": " + std::get<sim::DecodeError>(decoded).message();
            return out;
        }
        out["corpus/regressions/" + f.filename().string()] = hash_of(std::get<sim::ScenarioDocument>(decoded).scenario);
    }
    for (std::uint32_t i = 0; i < builder_cases; ++i) {
        sim::Prng rng(props::case_seed(builder_seed, i));
        out["builder case " + std::to_string(i)] = hash_of(sim::build_scenario_from_prng(rng));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]) != "--write")) {
        std::fprintf(stderr, "usage: golden_traces CHECKOUT [--write]\n");
        return 2;
    }
    const fs::path checkout = argv[1];
    std::error_code ec;
    if (!fs::is_directory(checkout / "corpus" / "regressions", ec)) {
        std::fprintf(stderr, "golden_traces: %s is not a checkout (no corpus/regressions/ in it)\nusage: golden_traces CHECKOUT [--write]\n",
                     checkout.c_str());
        return 2;
    }
    std::string error;
    const auto hashes = compute(checkout, error);
    if (!error.empty()) {
        std::fprintf(stderr, "golden_traces: %s\n", error.c_str());
        return 2;
    }
    if (argc == 3) {
        std::ofstream out(checkout / hashes_file, std::ios::binary);
        out << "# S-1 golden trace hashes (tests/golden_traces.cpp): name<TAB>hash. Regenerate with\n"
               "# golden_traces CHECKOUT --write only after a deliberate change of the sim, the builder or the tool.\n";
        for (const auto& [name, hash] : hashes) out << name << '\t' << hash << '\n';
        std::printf("golden_traces: wrote %zu hashes\n", hashes.size());
        return out ? 0 : 2;
    }
    std::ifstream in(checkout / hashes_file);
    std::map<std::string, std::string> golden;
    for (std::string line; std::getline(in, line);) {
        const auto tab = line.find('\t');
        if (line.empty() || line[0] == '#' || tab == std::string::npos) continue;
        golden[line.substr(0, tab)] = line.substr(tab + 1);
    }
    int differing = 0;
    for (const auto& [name, hash] : golden) {
        const auto it = hashes.find(name);
        if (it == hashes.end() || it->second != hash) {
            std::printf("DIFFERS %s: golden %s, this build %s\n", name.c_str(), hash.c_str(),
                        it == hashes.end() ? "(no such scenario)" : it->second.c_str());
            ++differing;
        }
    }
    for (const auto& [name, hash] : hashes) {
        if (golden.count(name) == 0) {
            std::printf("NEW %s: %s (not in %s: rewrite it with --write)\n", name.c_str(), hash.c_str(), hashes_file);
            ++differing;
        }
    }
    std::printf("golden_traces: %zu scenarios, %d differ from %s\n", hashes.size(), differing, hashes_file);
    return differing == 0 && !golden.empty() ? 0 : 1;
}
