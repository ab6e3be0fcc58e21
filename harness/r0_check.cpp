// R0 checks (harness/r0_check.h). Own reference interpreter, own journal parser (over the strict
// JSON reader, json/strict_parse.h),
// own hex: nothing here calls the undo tool.
#include "harness/r0_check.h"

#include <algorithm>
#include <cassert>
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <variant>

#include "json/strict_parse.h"

namespace deskcheck::r0 {
namespace {

using Json = nlohmann::json;
using sim::FsEntry;
using sim::WorldState;

// The journal's operation names (the format, SPEC R-7), spelled here once more on purpose.
constexpr std::array<std::string_view, 6> op_names{"file.write", "file.mkdir", "file.move", "ui.type", "ui.move", "ui.invoke"};
std::string_view op_name(StepOp op) { return op_names[static_cast<std::size_t>(op)]; }

std::string hex(const std::string& bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        out += digits[u >> 4];
        out += digits[u & 0xf];
    }
    return out;
}

std::vector<std::string> ancestors(const std::string& path) {
    std::vector<std::string> out;
    for (std::size_t i = path.find('/'); i != std::string::npos; i = path.find('/', i + 1)) out.push_back(path.substr(0, i));
    return out;
}

// The folders among `chain` (top-down) missing in `fs`; nullopt when a file is in the way.
std::optional<std::vector<std::string>> missing(const sim::FsTree& fs, const std::vector<std::string>& chain) {
    std::vector<std::string> out;
    for (const std::string& f : chain) {
        const auto it = fs.find(f);
        if (!out.empty() || it == fs.end()) out.push_back(f);
        else if (!it->second.folder) return std::nullopt;
    }
    return out;
}

const sim::R0Window* find_window(const WorldState& s, WindowId w) {
    for (const auto& win : s.windows) {
        if (win.id == w) return &win;
    }
    return nullptr;
}

const sim::R0Control* find_control(const WorldState& s, WindowId w, ElementId e) {
    const sim::R0Window* win = find_window(s, w);
    if (win == nullptr) return nullptr;
    for (const auto& c : win->controls) {
        if (c.id == e) return &c;
    }
    return nullptr;
}

// R-9, in the check's own words: a path leaves the root when it is absolute, or when a segment is
// empty, "." or ".." (the root's own folder is never a step's path).
bool leaves_root(const std::string& path) {
    if (path.empty() || path.front() == '/') return true;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string segment = path.substr(start, end - start);
        if (segment.empty() || segment == "." || segment == "..") return true;
        start = end + 1;
    }
    return false;
}

std::optional<Before> file_before(const WorldState& s, const TaskStep& step) {
    if (leaves_root(step.path) || (step.op == StepOp::FileMove && leaves_root(step.to))) return std::nullopt;
    Before b;
    b.path = step.path;
    b.to = step.to;
    std::vector<std::string> chain = ancestors(step.op == StepOp::FileMove ? step.to : step.path);
    if (step.op == StepOp::FileMkdir) chain.push_back(step.path);
    auto created = missing(s.fs, chain);
    if (!created) return std::nullopt;
    b.created_folders = *created;
    if (step.op == StepOp::FileMove) {
        if (s.fs.count(step.path) == 0 || s.fs.count(step.to) != 0) return std::nullopt;
    } else if (step.op == StepOp::FileWrite) {
        const auto it = s.fs.find(step.path);
        if (it != s.fs.end() && it->second.folder) return std::nullopt;
        b.existed = it != s.fs.end();
        if (b.existed) b.bytes = it->second.bytes;
    }
    return b;
}

std::optional<Before> ui_before(const WorldState& s, const TaskStep& step) {
    Before b;
    b.window = step.window;
    b.element = step.element;
    const sim::R0Window* win = find_window(s, step.window);
    if (win == nullptr) return std::nullopt;
    if (step.op == StepOp::UiMove) {
        b.rect = win->bounds;
        return b;
    }
    if (step.op == StepOp::UiInvoke) {
        b.irreversible = true;
        return b;
    }
    const sim::R0Control* c = find_control(s, step.window, step.element);
    if (c == nullptr || c->button || !c->readable || !c->enabled || win->framework == Framework::Electron) return std::nullopt;
    b.value = c->value;
    b.writer = win->framework == Framework::Win32 ? ValueWriter::KeyboardFallback : ValueWriter::ValuePattern;
    return b;
}

void reference_apply(WorldState& s, const TaskStep& step, const Before& b) {
    switch (step.op) {
        case StepOp::FileWrite:
        case StepOp::FileMkdir:
        case StepOp::FileMove:
            for (const auto& f : b.created_folders) s.fs[f] = FsEntry{true, ""};
            if (step.op == StepOp::FileWrite) s.fs[step.path] = FsEntry{false, step.bytes};
            if (step.op == StepOp::FileMove) {
                std::vector<std::pair<std::string, FsEntry>> moved;
                for (auto it = s.fs.begin(); it != s.fs.end();) {
                    if (it->first == step.path || it->first.rfind(step.path + "/", 0) == 0) {
                        moved.emplace_back(step.to + it->first.substr(step.path.size()), it->second);
                        it = s.fs.erase(it);
                    } else {
                        ++it;
                    }
                }
                for (auto& [p, e] : moved) s.fs[p] = e;
            }
            return;
        case StepOp::UiType:
            for (auto& w : s.windows) {
                for (auto& c : w.controls) {
                    if (w.id == step.window && c.id == step.element) c.value = step.text;
                }
            }
            return;
        case StepOp::UiMove:
            for (auto& w : s.windows) {
                if (w.id == step.window) w.bounds = step.rect;
            }
            return;
        case StepOp::UiInvoke: return;
    }
}

// Does the journal's `before` object say exactly what the reference says? Empty: yes.
std::string compare_before(const Json& j, StepOp op, const Before& b) {
    if (!j.is_object()) return "no before-state object";
    Json want;
    switch (op) {
        case StepOp::FileWrite:
            want = {{"path", b.path}, {"existed", b.existed}, {"bytes_hex", b.bytes ? Json(hex(*b.bytes)) : Json(nullptr)},
                    {"created_folders", b.created_folders}};
            break;
        case StepOp::FileMkdir: want = {{"path", b.path}, {"created_folders", b.created_folders}}; break;
        case StepOp::FileMove: want = {{"from", b.path}, {"to", b.to}, {"created_folders", b.created_folders}}; break;
        case StepOp::UiType:
            want = {{"window", b.window}, {"element", b.element}, {"value", b.value ? Json(*b.value) : Json(nullptr)},
                    {"writer", b.writer == ValueWriter::KeyboardFallback ? "keyboard_fallback" : "value_pattern"}};
            break;
        case StepOp::UiMove: want = {{"window", b.window}, {"rect", {b.rect.left, b.rect.top, b.rect.right, b.rect.bottom}}}; break;
        case StepOp::UiInvoke: want = {{"window", b.window}, {"element", b.element}, {"irreversible", true}}; break;
    }
    for (const auto& [key, value] : want.items()) {
        if (!j.contains(key)) return "before-state lacks \"" + key + "\"";
        if (j.at(key) != value) return "before-state \"" + key + "\" is " + j.at(key).dump() + ", expected " + value.dump();
    }
    if (j.size() != want.size()) return "before-state has fields beyond " + want.dump();
    return "";
}

struct Line {
    std::uint32_t step = 0;
    std::string status;
    Json before;
};

// Parses and checks the fields every line must carry. Empty string: fine.
std::string parse_line(const std::string& text, const R0Run& run, Line& out) {
    auto parsed = parse_json_strict<Json>(text);
    if (const auto* bad = std::get_if<JsonTextError>(&parsed)) return to_string(*bad) + ": " + text;
    const Json& j = std::get<Json>(parsed);
    if (!j.is_object()) return "not a JSON object: " + text;
    if (!j.contains("task") || !j["task"].is_string() || j["task"] != run.report.task_id || run.report.task_id.empty())
        return "task id is not the report's (\"" + run.report.task_id + "\"): " + text;
    if (!j.contains("step") || !j["step"].is_number_unsigned()) return "no step id: " + text;
    // Compared as the 64-bit number it is: a step above 2^32 never wraps onto a real step.
    const auto step = j["step"].get<std::uint64_t>();
    if (step < 1 || step > run.fixture->steps.size()) return "step id out of range: " + text;
    out.step = static_cast<std::uint32_t>(step);
    if (!j.contains("op") || j["op"] != op_name(run.fixture->steps[out.step - 1].op)) return "operation is not step " + std::to_string(out.step) + "'s: " + text;
    if (!j.contains("status") || !j["status"].is_string()) return "no status: " + text;
    out.status = j["status"].get<std::string>();
    const bool known = out.status == "intent" || out.status == "failed" || out.status == "refused" || out.status == "undone" ||
                       out.status == "undo_failed" || out.status == "not_undoable" || out.status == "done" ||
                       out.status == "undo_begun";
    if (!known) return "unknown status: " + text;
    if (out.status == "intent") {
        if (!j.contains("before")) return "an intent without its before-state: " + text;
        out.before = j["before"];
    }
    return "";
}

bool is_undo(const std::string& s) { return s == "undone" || s == "undo_failed" || s == "not_undoable"; }

// The journal read so far: its parsed lines, the next one to judge and the steps that wrote an intent.
struct JournalCursor {
    std::vector<Line> lines;
    std::size_t i = 0;
    std::uint32_t intents = 0;
    bool at(std::string_view status) const { return i < lines.size() && lines[i].status == status; }
};

// The intents, step 1 first, each with the before-state the reference gives its step.
std::string check_intents(const R0Run& run, JournalCursor& c) {
    for (; c.at("intent"); ++c.i) {
        const Line& l = c.lines[c.i];
        if (l.step != c.intents + 1) return "intent for step " + std::to_string(l.step) + " where step " + std::to_string(c.intents + 1) + " was due";
        ++c.intents;
        const auto want = reference_before(run.fixture->initial, run.fixture->steps, c.intents - 1);
        if (!want) return "an intent for step " + std::to_string(c.intents) + ", which cannot run there";
        if (std::string e = compare_before(l.before, run.fixture->steps[c.intents - 1].op, *want); !e.empty()) return "step " + std::to_string(c.intents) + ": " + e;
    }
    return "";
}

// The normal path finished: one `done` line naming the last step, then the undo (R-7: journaled
// ahead of its first effect). `kept`: killed after it finished, before its undo began.
std::string check_finished(const R0Run& run, JournalCursor& c, bool& kept) {
    const auto last = static_cast<std::uint32_t>(run.fixture->steps.size());
    if (!c.at("done")) return "no done line after the last step of the finished task";
    if (c.lines[c.i].step != last) return "the done line names step " + std::to_string(c.lines[c.i].step) + ", not the last (" + std::to_string(last) + ")";
    ++c.i;
    kept = run.crashed && c.i == c.lines.size();
    if (kept) return "";
    if (!c.at("undo_begun")) return c.intents > 0 ? "the undo of the finished task acted without an undo_begun line ahead of it" : "";
    if (c.lines[c.i].step != last) return "the undo_begun line names step " + std::to_string(c.lines[c.i].step) + ", not the last";
    ++c.i;
    return "";
}

// The failed (or refused) line of the failed step.
std::string check_failed_line(const R0Run& run, JournalCursor& c) {
    if (!c.at("failed") && !c.at("refused")) return "no failed line for the failed step";
    const std::uint32_t f = c.lines[c.i].step;
    if (c.lines[c.i].status == "refused") {
        if (c.intents != 0) return "a refusal after steps had acted";
        if (!not_undoable(*run.fixture, f - 1) && reference_before(run.fixture->initial, run.fixture->steps, f - 1)) return "refused step " + std::to_string(f) + ", which can be undone";
    } else {
        if (f != c.intents && f != c.intents + 1) return "the failed line names step " + std::to_string(f) + " after intents up to " + std::to_string(c.intents);
        if (run.failed_after_step && f > *run.failed_after_step) return "the failed line names step " + std::to_string(f) + ", after the injected failure";
    }
    ++c.i;
    return "";
}

// The undo lines: one pass, last step first, over every step that acted. A crashed run's recovery
// may begin a new pass, which starts again from the highest step not yet undone — one with no undo
// line, or whose last one is undo_failed (a recovery tries it again) — and also goes last step
// first. A step already undone never gets another line. Every step that acted has one, and the
// report's failed undos are the journal's.
std::string check_undo_lines(const R0Run& run, JournalCursor& c) {
    enum class Undo { None, Failed, Done };
    std::vector<Undo> state(c.intents + 1, Undo::None);
    const auto pending_below = [&](std::uint32_t below) -> std::uint32_t {
        for (std::uint32_t s = std::min(below, c.intents + 1); s-- > 1;) {
            if (state[s] != Undo::Done) return s;
        }
        return 0;
    };
    std::uint32_t previous = c.intents + 1;
    std::uint32_t passes = 0;
    for (; c.i < c.lines.size() && is_undo(c.lines[c.i].status); ++c.i) {
        const Line& l = c.lines[c.i];
        std::uint32_t want = pending_below(previous);
        if (l.step != want && run.crashed && passes > 0 && l.step == pending_below(c.intents + 1)) {
            want = l.step;  // a recovery's new pass
            ++passes;
        }
        if (passes == 0) passes = 1;
        if (want == 0) return "undo line for step " + std::to_string(l.step) + " after every step was undone";
        if (l.step != want) return "undo line for step " + std::to_string(l.step) + " where step " + std::to_string(want) + " was due (last step first)";
        state[want] = l.status == "undo_failed" ? Undo::Failed : Undo::Done;
        previous = want;
    }
    for (std::uint32_t want = c.intents; want >= 1; --want) {
        if (state[want] == Undo::None) return "no undo line for step " + std::to_string(want);
        const bool failed_line = state[want] == Undo::Failed;
        const bool claimed = std::count(run.report.undo_failed_steps.begin(), run.report.undo_failed_steps.end(), want) != 0;
        if (failed_line != claimed) return "step " + std::to_string(want) + ": journal and report disagree on whether its undo failed";
    }
    return "";
}

std::string check_journal(const R0Run& run) {
    if (!run.journal) return "the tool keeps no journal";
    JournalCursor c;
    for (const std::string& text : *run.journal) {
        Line l;
        if (std::string e = parse_line(text, run, l); !e.empty()) return e;
        c.lines.push_back(std::move(l));
    }
    if (c.lines.empty()) return run.crashed ? "" : "no journal line for task \"" + run.report.task_id + "\"";
    if (std::string e = check_intents(run, c); !e.empty()) return e;
    // A crashed run has its failed (or refused) line only when the failure came before the kill.
    const bool failed = !run.normal_then_undo && (!run.crashed || c.at("failed") || c.at("refused"));
    if (run.normal_then_undo) {
        bool kept = false;
        if (std::string e = check_finished(run, c, kept); !e.empty() || kept) return e;
    }
    if (failed) {
        if (std::string e = check_failed_line(run, c); !e.empty()) return e;
    }
    if (std::string e = check_undo_lines(run, c); !e.empty()) return e;
    if (c.i != c.lines.size()) return "unexpected line after the rollback: " + (*run.journal)[c.i];
    return "";
}

// The paths and readings step `index` touches: its target (and a move's destination), the folders
// it created (per the reference), the control it typed into, the window it moved.
bool owns(const R0Run& run, std::size_t index, const std::string& component) {
    const TaskStep& s = run.fixture->steps[index];
    switch (s.op) {
        case StepOp::FileWrite:
        case StepOp::FileMkdir:
        case StepOp::FileMove: {
            if (component == "file " + s.path || (s.op == StepOp::FileMove && component == "file " + s.to)) return true;
            const auto ref = reference_before(run.fixture->initial, run.fixture->steps, index);
            if (!ref) return false;
            return std::any_of(ref->created_folders.begin(), ref->created_folders.end(),
                               [&](const std::string& f) { return component == "file " + f; });
        }
        case StepOp::UiType: return component == "value " + std::to_string(s.window) + "/" + std::to_string(s.element);
        case StepOp::UiMove: return component == "geometry " + std::to_string(s.window);
        case StepOp::UiInvoke: return component == "invoked";
    }
    return false;
}

// Every component where the world after differs from `expected`, named as owns() names them.
std::vector<std::string> differences(const R0Run& run, const WorldState& expected) {
    const WorldState& actual = run.final_state;
    std::vector<std::string> diffs;
    for (const auto& [path, e] : expected.fs) {
        const auto it = actual.fs.find(path);
        if (it == actual.fs.end() || !(it->second == e)) diffs.push_back("file " + path);
    }
    for (const auto& [path, e] : actual.fs) {
        if (expected.fs.count(path) == 0) diffs.push_back("file " + path);
    }
    for (const auto& w : expected.windows) {
        const auto* aw = find_window(actual, w.id);
        if (aw != nullptr && !(aw->bounds == w.bounds)) diffs.push_back("geometry " + std::to_string(w.id));
        for (const auto& c : w.controls) {
            const auto* ac = find_control(actual, w.id, c.id);
            if (ac != nullptr && ac->value != c.value) diffs.push_back("value " + std::to_string(w.id) + "/" + std::to_string(c.id));
        }
    }
    if (expected.invoked != actual.invoked) diffs.push_back("invoked");
    return diffs;
}

std::vector<std::string> unowned_differences(const R0Run& run, const WorldState& expected) {
    const std::vector<std::string> diffs = differences(run, expected);
    std::vector<std::uint32_t> failed = run.report.undo_failed_steps;
    failed.insert(failed.end(), run.report.not_undoable_steps.begin(), run.report.not_undoable_steps.end());
    std::vector<std::string> unowned;
    for (const std::string& d : diffs) {
        const bool owned = std::any_of(failed.begin(), failed.end(), [&](std::uint32_t step) {
            return step >= 1 && step <= run.fixture->steps.size() && owns(run, step - 1, d);
        });
        if (!owned) unowned.push_back(d);
    }
    return unowned;
}

// What step `index` touches, as the check names it: a file step's path (a move's two), the folders
// it created (per the reference); a typed field; a moved window; nothing for an invoke.
std::vector<std::string> touched(const R0Run& run, std::size_t index) {
    const TaskStep& s = run.fixture->steps[index];
    switch (s.op) {
        case StepOp::UiType: return {"value " + std::to_string(s.window) + "/" + std::to_string(s.element)};
        case StepOp::UiMove: return {"geometry " + std::to_string(s.window)};
        case StepOp::UiInvoke: return {};
        default: break;
    }
    std::vector<std::string> out{"file " + s.path};
    if (s.op == StepOp::FileMove) out.push_back("file " + s.to);
    if (const auto ref = reference_before(run.fixture->initial, run.fixture->steps, index)) {
        for (const std::string& f : ref->created_folders) out.push_back("file " + f);
    }
    return out;
}

// Two things touched are the same thing when equal, or when one file lies inside the other folder.
bool same_thing(const std::string& a, const std::string& b) {
    return a == b || (a.starts_with("file ") && b.starts_with("file ") && (a.starts_with(b + "/") || b.starts_with(a + "/")));
}

// What the world's faulted operation worked on, as touched() names things ("" when no fault hit).
std::vector<std::string> faulted_subjects(const R0Run& run) {
    if (!run.fault || run.fault->op < 1 || run.fault->op > run.truth.ops.size()) return {};
    const sim::OpRecord& op = run.truth.ops[run.fault->op - 1];
    if (op.what == "move") {
        const std::size_t arrow = op.path.find(" -> ");
        if (arrow != std::string::npos) return {"file " + op.path.substr(0, arrow), "file " + op.path.substr(arrow + 4)};
    }
    if (op.what == "write" || op.what == "make_folder" || op.what == "remove") return {"file " + op.path};
    if (op.what == "move_window") return {"geometry " + op.path};
    return {"value " + op.path};
}

// An undo reported failed must have failed: something the step owns is left different, or the
// injected fault hit what it touches, or it waited on a later step's (truly) failed undo that
// touches the same thing. A made-up failure is a wrong claim ("" when every one is true).
std::string made_up_undo_failure(const R0Run& run, const WorldState& expected) {
    const std::vector<std::string> diffs = differences(run, expected);
    const std::vector<std::string> faulted = faulted_subjects(run);
    std::vector<std::uint32_t> claimed = run.report.undo_failed_steps;
    std::sort(claimed.rbegin(), claimed.rend());  // last step first, as the undo went
    std::vector<std::uint32_t> true_failures;
    for (const std::uint32_t k : claimed) {
        if (k < 1 || k > run.fixture->steps.size()) continue;
        const std::vector<std::string> mine = touched(run, k - 1);
        const auto touches = [&](const std::vector<std::string>& others) {
            return std::any_of(mine.begin(), mine.end(), [&](const std::string& a) {
                return std::any_of(others.begin(), others.end(), [&](const std::string& b) { return same_thing(a, b); });
            });
        };
        bool real = touches(faulted) || std::any_of(diffs.begin(), diffs.end(), [&](const std::string& d) { return owns(run, k - 1, d); });
        for (const std::uint32_t later : true_failures) real = real || touches(touched(run, later - 1));
        if (!real)
            return "step " + std::to_string(k) + " is reported undo_failed, yet all it touched is back, no fault hit it and no failed undo it waited on touches it";
        true_failures.push_back(k);
    }
    return "";
}

// after an undo failed, an earlier step's undo that touches what the failed one should have
// restored finds a state nobody knows; it must not be reported restored ("" when none is).
std::string restored_over_a_failed_undo(const R0Run& run) {
    const std::size_t steps = run.fixture->steps.size();
    for (const std::uint32_t k : run.report.undo_failed_steps) {
        if (k < 1 || k > steps) continue;
        for (const std::uint32_t r : run.report.restored_steps) {
            if (r < 1 || r >= k) continue;  // undone before the failure (last step first), or out of range
            for (const std::string& a : touched(run, r - 1)) {
                for (const std::string& b : touched(run, k - 1)) {
                    if (same_thing(a, b))
                        return "step " + std::to_string(r) + " is reported restored, but it touches " + a.substr(a.find(' ') + 1) +
                               ", which the failed undo of step " + std::to_string(k) + " should have restored first (R-7)";
                }
            }
        }
    }
    return "";
}

}  // namespace

bool not_undoable(const sim::R0Fixture& f, std::size_t index) {
    const TaskStep& s = f.steps.at(index);
    if (s.op == StepOp::UiInvoke) return true;
    if (s.op != StepOp::UiType) return false;
    const auto b = reference_before(f.initial, f.steps, index);
    return b && b->writer == ValueWriter::KeyboardFallback && !b->value;
}

std::optional<Before> reference_before(const WorldState& initial, const std::vector<TaskStep>& steps, std::size_t index) {
    WorldState s = initial;
    for (std::size_t i = 0; i <= index && i < steps.size(); ++i) {
        const TaskStep& step = steps[i];
        const bool file = step.op == StepOp::FileWrite || step.op == StepOp::FileMkdir || step.op == StepOp::FileMove;
        auto b = file ? file_before(s, step) : ui_before(s, step);
        if (!b || i == index) return b;
        reference_apply(s, step, *b);
    }
    return std::nullopt;
}

std::optional<WorldState> reference_after(const WorldState& initial, const std::vector<TaskStep>& steps) {
    WorldState s = initial;
    for (const TaskStep& step : steps) {
        const bool file = step.op == StepOp::FileWrite || step.op == StepOp::FileMkdir || step.op == StepOp::FileMove;
        const auto b = file ? file_before(s, step) : ui_before(s, step);
        if (!b) return std::nullopt;
        reference_apply(s, step, *b);
    }
    return s;
}

WorldState expected_after(const sim::R0Fixture& f, const sim::WorldTruth& truth, const std::vector<std::string>& allowed_invoked) {
    WorldState s = f.initial;
    for (const auto& o : truth.others_done) sim::add_file(s.fs, o.path, o.bytes);
    s.invoked = allowed_invoked;
    return s;
}

ApplyReport claims_of_journal(const R0Run& run) {
    ApplyReport r;
    r.task_id = run.report.task_id;
    if (!run.journal) return r;
    // A step's undo is claimed by its last undo line: a recovery tries an undo_failed step again
    // and journals what the new attempt did (undone, or undo_failed once more).
    std::vector<std::pair<std::uint32_t, std::string>> last_undo;  // in the order of each step's last undo line
    for (const std::string& text : *run.journal) {
        auto parsed = parse_json_strict<Json>(text);
        const Json* line = std::get_if<Json>(&parsed);
        if (line == nullptr) continue;  // check_journal names it
        const Json& j = *line;
        if (!j.is_object() || !j.contains("task") || j["task"] != run.report.task_id) continue;
        if (!j.contains("step") || !j["step"].is_number_unsigned() || !j.contains("status") || !j["status"].is_string()) continue;
        if (j["step"].get<std::uint64_t>() > UINT32_MAX) continue;  // check_journal names it
        const auto step = j["step"].get<std::uint32_t>();
        const std::string status = j["status"].get<std::string>();
        if (status == "intent") ++r.executed;
        if (status == "undone" || status == "undo_failed" || status == "not_undoable") {
            std::erase_if(last_undo, [step](const auto& u) { return u.first == step; });
            last_undo.emplace_back(step, status);
        }
        if (status == "refused") r.refused = true;
    }
    for (const auto& [step, status] : last_undo) {
        if (status == "undone") {
            ++r.rolled_back;
            r.restored_steps.push_back(step);
        }
        if (status == "undo_failed") r.undo_failed_steps.push_back(step);
        if (status == "not_undoable") r.not_undoable_steps.push_back(step);
    }
    return r;
}

namespace {

// Killed after the task finished and before its undo began (normal path then undo): the task's
// result is the user's, and recovery must leave it — the world is the reference's world after every
// step, plus what others wrote, and no line follows the done line.
bool finished_and_kept(const R0Run& run) {
    if (!run.crashed || !run.normal_then_undo || !run.journal) return false;
    return std::none_of(run.journal->begin(), run.journal->end(), [](const std::string& l) {
        return l.find("\"undone\"") != std::string::npos || l.find("\"undo_failed\"") != std::string::npos ||
               l.find("\"not_undoable\"") != std::string::npos || l.find("\"undo_begun\"") != std::string::npos;
    });
}

R0Judgement judge_kept(const R0Run& run) {
    R0Judgement j;
    const sim::R0Fixture& f = *run.fixture;
    const auto after = reference_runs(f) ? reference_after(f.initial, f.steps) : std::nullopt;
    if (!after) {
        j.why.push_back("residue: the task finished, and the reference says it cannot run here");
        return j;
    }
    WorldState expected = *after;
    for (const auto& o : run.truth.others_done) sim::add_file(expected.fs, o.path, o.bytes);
    for (const TaskStep& s : f.steps) {
        const sim::R0Control* c = s.op == StepOp::UiInvoke ? find_control(f.initial, s.window, s.element) : nullptr;
        if (c != nullptr && c->enabled) expected.invoked.push_back(std::to_string(s.window) + "/" + std::to_string(s.element));
    }
    j.residue = expected == run.final_state;
    if (!j.residue) {
        for (auto& line : sim::state_diff(expected, run.final_state)) j.why.push_back("kept: the finished task's result was not left as it was: " + line);
    }
    j.rollback = true;  // nothing was due to be undone
    j.honest = run.report.restored_steps.empty() && run.report.undo_failed_steps.empty();
    if (!j.honest) j.why.push_back("recovery claims undos of a finished task it had to leave");
    if (const auto e = task_report_claims(run)) {
        j.honest = false;
        j.why.push_back(*e);
    }
    const std::string trace = check_journal(run);
    j.traceability = trace.empty();
    if (!j.traceability) j.why.push_back("traceability: " + trace);
    return j;
}

R0Judgement judge(const R0Run& run) {
    if (finished_and_kept(run)) return judge_kept(run);
    R0Judgement j;
    const sim::R0Fixture& f = *run.fixture;
    // Irreversible effects may stay only when the task allowed them and the report says so.
    std::vector<std::string> allowed;
    for (const std::string& inv : run.final_state.invoked) {
        bool declared = false;
        for (const std::uint32_t step : run.report.not_undoable_steps) {
            const TaskStep& s = f.steps.at(step - 1);
            declared = declared || (run.allow_irreversible && s.op == StepOp::UiInvoke &&
                                    inv == std::to_string(s.window) + "/" + std::to_string(s.element));
        }
        if (declared) allowed.push_back(inv);
    }
    WorldState expected = expected_after(f, run.truth, allowed);
    // A value the task allowed to change although it cannot be written back, declared so, may stay.
    for (const std::uint32_t step : run.report.not_undoable_steps) {
        const TaskStep& s = f.steps.at(step - 1);
        if (!run.allow_irreversible || s.op != StepOp::UiType || !not_undoable(f, step - 1)) continue;
        const sim::R0Control* actual = find_control(run.final_state, s.window, s.element);
        for (auto& w : expected.windows) {
            for (auto& c : w.controls) {
                if (actual != nullptr && w.id == s.window && c.id == s.element) c.value = actual->value;
            }
        }
    }
    j.residue = expected == run.final_state;
    if (!j.residue) {
        for (auto& line : sim::state_diff(expected, run.final_state)) j.why.push_back("residue: " + line);
    }
    // Every difference left must be owned by a step the report says was not restored.
    const std::vector<std::string> unowned = unowned_differences(run, expected);
    const bool claims_true = unowned.empty();
    for (const std::string& d : unowned) j.why.push_back("not restored, yet no step owning it is reported failed: " + d);
    j.honest = claims_true;
    if (const std::string e = restored_over_a_failed_undo(run); !e.empty()) {
        j.honest = false;
        j.why.push_back(e);
    }
    if (const std::string e = made_up_undo_failure(run, expected); !e.empty()) {
        j.honest = false;
        j.why.push_back(e);
    }
    if (const auto e = task_report_claims(run)) {
        j.honest = false;
        j.why.push_back(*e);
    }
    const bool changed = std::any_of(run.truth.ops.begin(), run.truth.ops.end(), [](const sim::OpRecord& o) { return o.result == "ok"; });
    const std::size_t undone = run.report.rolled_back + run.report.not_undoable_steps.size();
    j.rollback = claims_true && undone == run.report.executed && (!changed || run.report.executed > 0) &&
                 run.report.undo_failed_steps.empty();
    if (!j.rollback)
        j.why.push_back("rollback: " + std::to_string(run.report.rolled_back) + " undone of " + std::to_string(run.report.executed) + " executed");
    std::string trace = check_journal(run);
    if (trace.empty() && first_step_leaving_root(f) && !run.truth.ops.empty())
        trace = "step " + std::to_string(*first_step_leaving_root(f)) + "'s path leaves the root (R-9), and the task acted before refusing";
    if (const auto k = first_step_to_refuse(f, run.allow_irreversible); trace.empty() && k && !run.crashed) {
        const bool refused_line = run.journal && !run.journal->empty() && run.journal->front().find("\"refused\"") != std::string::npos;
        if (!run.truth.ops.empty() || !refused_line)
            trace = "step " + std::to_string(*k) + " cannot be undone and the task does not allow it (R-3, R-4): the task was not refused before acting";
    }
    j.traceability = trace.empty();
    if (!j.traceability) j.why.push_back("traceability: " + trace);
    return j;
}

}  // namespace

R0Judgement judge_r0_run(const R0Run& run) {
    if (!run.crashed) return judge(run);
    R0Run claimed = run;  // no apply report survived the kill: the claims are the journal's
    claimed.report = claims_of_journal(run);
    return judge(claimed);
}

std::optional<std::string> failure_leaves_nothing(const R0Run& input) {
    R0Run claimed;
    if (input.crashed) {
        claimed = input;
        claimed.report = claims_of_journal(input);
    }
    const R0Run& run = input.crashed ? claimed : input;
    const R0Judgement j = judge(run);
    // An undo that itself failed (the fault hit the rollback) cannot leave nothing: it must be
    // reported — every difference owned by a step reported failed — and journaled.
    const bool undo_failed = !run.report.undo_failed_steps.empty();
    if (undo_failed ? (j.honest && j.traceability) : j.all()) return std::nullopt;
    return j.why.empty() ? std::string("failure_leaves_nothing") : j.why.front();
}

bool reference_runs(const sim::R0Fixture& f) {
    if (!reference_after(f.initial, f.steps)) return false;
    // An invoke needs a button in a window whose framework takes UI Automation's Invoke.
    return std::all_of(f.steps.begin(), f.steps.end(), [&](const TaskStep& s) {
        if (s.op != StepOp::UiInvoke) return true;
        const sim::R0Window* w = find_window(f.initial, s.window);
        const sim::R0Control* c = find_control(f.initial, s.window, s.element);
        return w != nullptr && c != nullptr && c->button && w->framework != Framework::Electron;
    });
}

std::optional<std::uint32_t> first_step_leaving_root(const sim::R0Fixture& f) {
    for (std::uint32_t i = 0; i < f.steps.size(); ++i) {
        const TaskStep& s = f.steps[i];
        const bool file = s.op == StepOp::FileWrite || s.op == StepOp::FileMkdir || s.op == StepOp::FileMove;
        if (file && (leaves_root(s.path) || (s.op == StepOp::FileMove && leaves_root(s.to)))) return i + 1;
    }
    return std::nullopt;
}

std::optional<std::uint32_t> first_step_to_refuse(const sim::R0Fixture& f, bool allow_irreversible) {
    if (allow_irreversible) return std::nullopt;
    for (std::uint32_t i = 0; i < f.steps.size(); ++i) {
        const TaskStep& s = f.steps[i];
        if (s.op == StepOp::UiInvoke) return i + 1;
        const sim::R0Window* w = find_window(f.initial, s.window);
        if (s.op == StepOp::UiMove && w == nullptr) return i + 1;  // no geometry to give back
        if (s.op != StepOp::UiType) continue;
        const sim::R0Control* c = find_control(f.initial, s.window, s.element);
        // no set-value primitive and no fallback (no edit, or an Electron tree), a value that
        // cannot be read, or "no value" where only select-all + paste could write it back.
        if (w == nullptr || c == nullptr || c->button || w->framework == Framework::Electron || !c->readable) return i + 1;
        if (w->framework == Framework::Win32 && !c->value) return i + 1;
    }
    return std::nullopt;
}

bool fault_hit(const R0Run& run) { return run.fault && run.fault->op >= 1 && run.fault->op <= run.truth.ops.size(); }

std::optional<std::string> undo_restores(const R0Run& run) {
    assert(run.normal_then_undo);
    const sim::R0Fixture& f = *run.fixture;
    const bool op_failed = fault_hit(run);
    if (!run.normal_finished) {
        if (!op_failed && reference_runs(f)) return "the normal path did not finish, though it can";
        R0Run failed = run;  // it failed on its own: judged as any failed run
        failed.normal_then_undo = false;
        return failure_leaves_nothing(failed);
    }
    const R0Judgement j = judge(run);
    if (op_failed) {  // an operation of the undo failed: reported so, never counted restored
        if (!j.honest || !j.traceability) return j.why.empty() ? std::string("undo_restores") : j.why.front();
        if (run.report.undo_failed_steps.empty()) return "an operation of the undo failed, and no undo is reported failed";
        return std::nullopt;
    }
    if (!j.all()) return j.why.empty() ? std::string("undo_restores") : j.why.front();
    if (run.second_undo) {  // a task is undone once
        if (run.second_undo_acted) return "undoing the finished task a second time changed the world or the journal";
        if (run.second_undo->ok || run.second_undo->error.empty() || !run.second_undo->steps.empty())
            return "undoing the finished task a second time reports " + std::string(run.second_undo->ok ? "ok" : "no error") + " or steps";
    }
    std::size_t irreversible = 0;
    for (std::size_t i = 0; i < f.steps.size(); ++i) irreversible += not_undoable(f, i) ? 1 : 0;
    if (run.report.not_undoable_steps.size() != irreversible)
        return std::to_string(run.report.not_undoable_steps.size()) + " steps reported not undoable, where " + std::to_string(irreversible) +
               " cannot be undone";
    return std::nullopt;
}

}  // namespace deskcheck::r0
