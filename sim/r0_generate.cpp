// Generated R0 fixtures (sim/r0_generate.h).
#include "sim/r0_generate.h"

#include <array>
#include <string_view>

namespace deskcheck::sim {
namespace {

constexpr std::array<std::string_view, 6> folders{"", "docs", "out", "out/new", "inbox/a/b", "docs/old"};
constexpr std::array<std::string_view, 4> names{"a.txt", "b.log", "c.md", "d.txt"};
// A quote, a backslash, a control character and UTF-8: what the journal must write so that every
// line reads back as it was (R-7).
constexpr std::array<std::string_view, 4> contents{"", "h\xc3\xa9llo", "v2\n\x1b", "say \"hi\" \\o/"};
constexpr std::array<Framework, 4> frameworks{Framework::Wpf, Framework::Win32, Framework::WinForms, Framework::Electron};
constexpr std::uint32_t existing_folders_max = 3;
constexpr std::uint32_t existing_files_max = 3;
constexpr std::uint32_t windows_max = 2;
constexpr std::uint32_t others_max = 2;
constexpr std::uint32_t other_after_op_max = 8;

std::string file_path(R0Choices& c) {
    const std::string folder(folders[c.pick(folders.size())]);
    const std::string name(names[c.pick(names.size())]);
    return folder.empty() ? name : folder + "/" + name;
}

void add_existing_files(R0Choices& c, WorldState& s) {
    const std::uint32_t folder_count = c.pick(existing_folders_max + 1);
    for (std::uint32_t i = 0; i < folder_count; ++i) {
        const std::string folder(folders[1 + c.pick(folders.size() - 1)]);
        for (const std::string& a : ancestors_of(folder)) s.fs[a] = FsEntry{true, ""};
        s.fs[folder] = FsEntry{true, ""};
    }
    const std::uint32_t file_count = c.pick(existing_files_max + 1);
    for (std::uint32_t i = 0; i < file_count; ++i) {
        const std::string path = file_path(c);
        const std::string parent = parent_of(path);
        if (!parent.empty() && s.fs.count(parent) == 0) continue;  // only into existing folders
        if (s.fs.count(path) == 0) s.fs[path] = FsEntry{false, std::string(contents[1 + c.pick(contents.size() - 1)])};
    }
}

void add_windows(R0Choices& c, WorldState& s) {
    const std::uint32_t count = c.pick(windows_max + 1);
    for (std::uint32_t i = 0; i < count; ++i) {
        R0Window w;
        w.id = i + 1;
        w.framework = frameworks[c.pick(frameworks.size())];
        const std::int32_t x = static_cast<std::int32_t>(c.pick(4)) * 100;
        w.bounds = Rect{x, 0, x + 640, 480};
        const std::uint32_t value_kind = c.pick(3);
        R0Control edit;
        edit.id = 10 * w.id + 1;
        if (value_kind == 1) edit.value = "";
        if (value_kind == 2) edit.value = "abc";
        w.controls.push_back(edit);
        R0Control button;
        button.id = 10 * w.id + 2;
        button.button = true;
        w.controls.push_back(button);
        s.windows.push_back(w);
    }
}

TaskStep ui_step(R0Choices& c, const WorldState& s) {
    TaskStep t;
    const R0Window& w = s.windows[c.pick(static_cast<std::uint32_t>(s.windows.size()))];
    t.window = w.id;
    const std::uint32_t kind = c.pick(10);
    if (kind < 5) {
        t.op = StepOp::UiType;
        t.element = w.id * 10 + 1;
        t.text = std::string(contents[c.pick(contents.size())]);
    } else if (kind < 9) {
        t.op = StepOp::UiMove;
        const std::int32_t x = static_cast<std::int32_t>(c.pick(8)) * 50;
        t.rect = Rect{x, x, x + 320, x + 240};
    } else {
        t.op = StepOp::UiInvoke;
        t.element = w.id * 10 + 2;
    }
    return t;
}

TaskStep file_step(R0Choices& c) {
    TaskStep t;
    const std::uint32_t kind = c.pick(6);
    if (kind < 3) {
        t.op = StepOp::FileWrite;
        t.path = file_path(c);
        t.bytes = std::string(contents[c.pick(contents.size())]);
    } else if (kind < 5) {
        t.op = StepOp::FileMove;
        t.path = file_path(c);
        t.to = file_path(c);
    } else {
        t.op = StepOp::FileMkdir;
        t.path = std::string(folders[1 + c.pick(folders.size() - 1)]);
    }
    return t;
}

}  // namespace

R0Fixture generate_r0_fixture(R0Choices& c) {
    R0Fixture f;
    f.name = "generated";
    f.generated = true;
    add_existing_files(c, f.initial);
    add_windows(c, f.initial);
    const std::uint32_t steps = 1 + c.pick(r0_generated_steps_max);
    for (std::uint32_t i = 0; i < steps; ++i) {
        const bool ui = !f.initial.windows.empty() && c.pick(3) == 2;
        f.steps.push_back(ui ? ui_step(c, f.initial) : file_step(c));
    }
    f.allow_irreversible = c.pick(2) == 1;
    const std::uint32_t others = c.pick(others_max + 1);
    for (std::uint32_t i = 0; i < others; ++i) {
        const std::string folder(folders[c.pick(folders.size())]);
        const std::string name = "other-" + std::to_string(i) + ".txt";
        f.others.push_back(OtherWrite{c.pick(other_after_op_max + 1), folder.empty() ? name : folder + "/" + name, "theirs"});
    }
    return f;
}

R0FailurePoint generate_r0_failure(R0Choices& c, const R0Fixture& fixture, std::size_t normal_ops) {
    R0FailurePoint p;
    p.at_operation = normal_ops > 0 && c.pick(2) == 1;
    if (!p.at_operation) {
        p.step = 1 + c.pick(static_cast<std::uint32_t>(fixture.steps.size()));
        return p;
    }
    p.fault.op = 1 + c.pick(static_cast<std::uint32_t>(normal_ops));
    p.fault.kind = static_cast<OpFaultKind>(c.pick(4));
    return p;
}

}  // namespace deskcheck::sim
