// fuzz_seed_writer TARGET DIR COUNT: writes COUNT candidate seed inputs for TARGET into DIR,
// deterministically (our PRNG, fixed seeds). fuzz/make_seeds.sh runs it and keeps, with libFuzzer's
// -merge=1, the candidates that add coverage; the kept files are committed under corpus/<target>/.
//   fuzz_batch, fuzz_verdict, fuzz_locator, fuzz_observation: random byte strings of varied lengths (fuzz_batch keeps
//     only those that decode to a valid scenario);
//   fuzz_scenario_json: generated scenarios in the canonical JSON format (readable);
//   fuzz_journal: a world byte ('0'..'7', fuzz/fuzz_journal_worlds.h), then the journal the undo tool
//     writes running that world's task with a failure after a step, cut where a crash would cut it,
//     and (one in four) an adapter's answer lines for the same task (readable).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_journal_worlds.h"
#include "model/undo.h"
#include "sim/build.h"
#include "sim/prng.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"

namespace {

using namespace deskcheck;
namespace fs = std::filesystem;

constexpr std::uint32_t count_max = 100'000;

std::string numbered(std::string_view prefix, std::uint32_t i, std::string_view suffix) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%05u", i);
    return std::string(prefix) + digits + std::string(suffix);
}

bool write(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

std::string random_bytes(sim::Prng& rng, std::uint64_t length_min, std::uint64_t length_max) {
    const auto length = static_cast<std::size_t>(rng.between(static_cast<std::int64_t>(length_min), static_cast<std::int64_t>(length_max)));
    std::string out(length, '\0');
    for (char& c : out) c = static_cast<char>(rng.below(256));
    return out;
}

// Journal lines as a crash leaves them: the task's lines up to a random point.
std::string journal_candidate(sim::Prng& rng, std::uint32_t i) {
    const std::size_t world_index = i % fuzz::journal_worlds;
    const sim::R0Fixture& f = fuzz::journal_world(world_index);
    sim::World world(f.initial, f.others, std::nullopt);
    MemoryJournal journal;
    UndoTool tool(UndoPorts{&world.files(), &world.desktop(), &journal});
    const auto fail_at = static_cast<std::uint32_t>(rng.between(0, static_cast<std::int64_t>(f.steps.size())));
    const TaskReport report = tool.run(Task{"r0-" + f.name + "-1", f.steps, rng.below(2) == 0},
                                       [fail_at](std::uint32_t step) -> std::optional<std::string> {
                                           if (step == fail_at) return "injected failure (seed)";
                                           return std::nullopt;
                                       });
    const auto& lines = journal.lines();
    const auto keep = static_cast<std::size_t>(rng.between(1, static_cast<std::int64_t>(std::max<std::size_t>(1, lines.size()))));
    std::string out(1, static_cast<char>('0' + world_index));
    for (std::size_t k = 0; k < keep && k < lines.size(); ++k) out += lines[k] + "\n";
    if (rng.below(4) == 0) {
        std::string executed, restored;
        for (const UndoStepReport& s : report.steps) {
            if (s.journaled) executed += (executed.empty() ? "" : ",") + std::to_string(s.step);
            if (s.undo == UndoState::Restored) restored += (restored.empty() ? "" : ",") + std::to_string(s.step);
        }
        out += "{\"task\":" + json_quote(report.task_id) + ",\"executed\":[" + executed + "],\"rolled_back\":[" + restored +
               "],\"undo_failed\":[],\"not_undoable\":[],\"finished\":" + (report.ok ? "true" : "false") +
               ",\"refused\":" + (report.refused ? "true" : "false") + "}\n";
        std::string quoted_lines;
        for (std::size_t k = 0; k < keep && k < lines.size(); ++k) quoted_lines += (k == 0 ? "" : ",") + json_quote(lines[k]);
        out += "{\"lines\":[" + quoted_lines + "]}\n";
    }
    return out;
}

bool decodes_to_valid_scenario(const std::string& bytes) {
    const auto s = sim::build_scenario_from_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    return !sim::validate(s).has_value();
}

std::string candidate(std::string_view target, std::uint32_t i) {
    sim::Prng rng(0xdecc'0000ULL + i);
    if (target == "fuzz_verdict") return random_bytes(rng, 4, 64);
    if (target == "fuzz_locator") return random_bytes(rng, 8, 128);
    if (target == "fuzz_observation") return random_bytes(rng, 8, 96);
    if (target == "fuzz_batch") return random_bytes(rng, 32, 512);
    if (target == "fuzz_journal") return journal_candidate(rng, i);
    sim::BuildOptions options = sim::fuzz_build_options();
    options.windows_max = static_cast<std::uint32_t>(rng.between(1, 4));
    options.controls_max = static_cast<std::uint32_t>(rng.between(1, 6));
    options.steps_max = static_cast<std::uint32_t>(rng.between(1, 8));
    return sim::encode_scenario_text(sim::build_scenario_from_prng(rng, options));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: fuzz_seed_writer TARGET DIR COUNT\n");
        return 2;
    }
    const std::string_view target = argv[1];
    const fs::path dir = argv[2];
    std::uint32_t count = 0;
    const std::string_view n = argv[3];
    if (std::from_chars(n.data(), n.data() + n.size(), count).ec != std::errc() || count > count_max) {
        std::fprintf(stderr, "fuzz_seed_writer: COUNT must be a number up to %u\n", count_max);
        return 2;
    }
    fs::create_directories(dir);
    const bool json = target == "fuzz_scenario_json";  // fuzz_journal's text is not one JSON document
    std::uint32_t written = 0;
    for (std::uint32_t i = 0; i < count * 4 && written < count; ++i) {
        const std::string bytes = candidate(target, i);
        if (target == "fuzz_batch" && !decodes_to_valid_scenario(bytes)) continue;
        if (!write(dir / numbered("cand-", i, json ? ".json" : ""), bytes)) return 2;
        ++written;
    }
    std::fprintf(stderr, "fuzz_seed_writer: %u candidates for %.*s in %s\n", written, static_cast<int>(target.size()),
                 target.data(), dir.c_str());
    return 0;
}
