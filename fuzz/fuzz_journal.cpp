// fuzz_journal: bytes -> journal lines and R0 adapter answers, through the readers a recovery and
// `deskcheck r0 --adapter-cmd` use, then the recovery itself over the in-memory world (no POSIX
// process, no real file). Input: byte 0 selects the world (fuzz/fuzz_journal_worlds.h), the rest
// is text, one line per '\n'. Invariants (each a finding when broken):
//  - answers (harness/r0_adapter_answer.h): decoding never throws; an accepted answer is an
//    object, the same value nlohmann/json's lenient parser gives, and its text round-trips; a
//    refused one says why, and an object the lenient parser takes is refused only for a duplicate
//    key named with its JSON pointer, or a NUL byte;
//  - journal lines (host/journal_read.h): a line read without a desktop reads the same with one;
//    an entry read back writes (model/journal.h's to_line) a line that reads back to that line;
//  - recovery (model/undo.h) from every line read: each step it reports restored has an intent
//    line of its task; a second recovery over the journal the first one extended changes nothing.
// Empty input: -1.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz/fuzz_journal_worlds.h"
#include "host/journal_read.h"
#include "model/undo.h"
#include "harness/judge_run.h"
#include "harness/r0_adapter_answer.h"
#include "sim/r0_world.h"

namespace {

using namespace deskcheck;
using Json = nlohmann::ordered_json;

constexpr std::size_t lines_max = 64;
constexpr std::string_view target = "fuzz_journal";

[[noreturn]] void broken(std::string_view what, std::string_view line, const std::string& detail = "") {
    props::invariant_broken(target, what, std::string("line ") + std::string(line.substr(0, 300)) + (detail.empty() ? "" : " | " + detail));
}

void check_answer(std::string_view line) {
    std::string why;
    const Json answer = r0::decode_adapter_answer(line, why);
    const Json lenient = Json::parse(line, nullptr, false);
    if (!answer.is_discarded()) {
        if (!answer.is_object() || !why.empty()) broken("an accepted answer is an object, with no reason given", line, why);
        if (lenient != answer) broken("an accepted answer reads as nlohmann/json reads it", line);
        std::string again;
        if (r0::decode_adapter_answer(answer.dump(), again) != answer) broken("an accepted answer's text round-trips", line, again);
        return;
    }
    if (why.empty()) broken("a refused answer says why", line);
    if (lenient.is_object() && why.find("duplicate key") == std::string::npos && line.find('\0') == std::string_view::npos) {
        broken("an object is refused only for a duplicate key or a NUL byte", line, why);
    }
    if (why.find("duplicate key") != std::string::npos && why.find(" at /") == std::string::npos) {
        broken("a duplicate key is named with its JSON pointer", line, why);
    }
}

void check_journal_line(const std::string& line) {
    const host::EntryOrError plain = host::parse_journal_line(line, /*desktop=*/false);
    const host::EntryOrError desk = host::parse_journal_line(line, /*desktop=*/true);
    if (plain.entry && (!desk.entry || to_line(*desk.entry) != to_line(*plain.entry))) {
        broken("a line read without a desktop reads the same with one", line, desk.error);
    }
    for (const host::EntryOrError* e : {&plain, &desk}) {
        if (!e->entry && e->error.empty()) broken("a line refused says why", line);
        if (!e->entry) continue;
        const std::string written = to_line(*e->entry);
        const host::EntryOrError back = host::parse_journal_line(written, e == &desk);
        if (!back.entry || to_line(*back.entry) != written) broken("an entry read back writes a line that reads back to it", line, written + " | " + back.error);
    }
}

std::vector<TaskReport> recover(sim::World& world, const std::vector<JournalEntry>& entries, MemoryJournal& sink) {
    UndoTool tool(UndoPorts{&world.files(), &world.desktop(), &sink});
    return tool.recover(entries);
}

void check_recovery(const sim::R0Fixture& fixture, const std::vector<std::string>& lines, std::string_view input) {
    const host::EntriesOrError parsed = host::parse_journal(lines, /*desktop=*/true);
    if (!parsed.error.empty()) return;
    std::set<std::pair<std::string, std::uint32_t>> intents;
    for (const JournalEntry& e : parsed.entries) {
        if (e.status == JournalStatus::Intent) intents.emplace(e.task, e.step);
    }
    sim::World world(fixture.initial, {}, std::nullopt);
    MemoryJournal first;
    for (const TaskReport& r : recover(world, parsed.entries, first)) {
        for (const UndoStepReport& s : r.steps) {
            if (s.undo == UndoState::Restored && intents.count({r.task_id, s.step}) == 0) {
                broken("recovery restores only steps with an intent line", input, r.task_id + " step " + std::to_string(s.step));
            }
        }
    }
    const sim::WorldState after_first = world.state();
    std::vector<std::string> extended = lines;
    extended.insert(extended.end(), first.lines().begin(), first.lines().end());
    const host::EntriesOrError reread = host::parse_journal(extended, /*desktop=*/true);
    if (!reread.error.empty()) broken("the lines a recovery writes read back", input, reread.error);
    MemoryJournal second;
    recover(world, reread.entries, second);
    if (!(world.state() == after_first)) {
        std::string diff;
        for (const auto& d : sim::state_diff(after_first, world.state())) diff += d + "; ";
        broken("a second recovery changes nothing", input, diff);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    const sim::R0Fixture& fixture = fuzz::journal_world(data[0]);
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::vector<std::string> lines;
    std::size_t from = 0;
    while (from < text.size() && lines.size() < lines_max) {  // a last '\n' ends the last line
        const std::size_t nl = text.find('\n', from);
        const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        lines.emplace_back(text.substr(from, end - from));
        if (nl == std::string_view::npos) break;
        from = nl + 1;
    }
    for (const std::string& line : lines) {
        check_answer(line);
        check_journal_line(line);
    }
    check_recovery(fixture, lines, text);
    return 0;
}
