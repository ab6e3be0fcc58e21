// R0 fixture JSON codec (sim/r0_fixture_json.h).
#include "sim/r0_fixture_json.h"

#include <set>

#include "json/strict_parse.h"

namespace deskcheck::sim {
namespace {

using Json = nlohmann::ordered_json;

struct Bad {
    std::string path;
    std::string reason;
};

void only_keys(const Json& j, const std::string& path, std::initializer_list<std::string_view> keys) {
    if (!j.is_object()) throw Bad{path.empty() ? "/" : path, "expected an object"};
    for (const auto& [key, value] : j.items()) {
        bool known = false;
        for (auto k : keys) known = known || k == key;
        if (!known) throw Bad{path + "/" + key, "unknown field"};
    }
}

const Json& at(const Json& j, const std::string& path, const char* key) {
    if (!j.contains(key)) throw Bad{path + "/" + key, "required field missing"};
    return j.at(key);
}

std::string str(const Json& j, const std::string& path, const char* key) {
    const Json& v = at(j, path, key);
    if (!v.is_string()) throw Bad{path + "/" + key, "expected a string"};
    return v.get<std::string>();
}

std::string path_field(const Json& j, const std::string& path, const char* key) {
    std::string p = str(j, path, key);
    if (!valid_path(p)) throw Bad{path + "/" + key, "not a relative path without '.', '..' or empty segments"};
    return p;
}

std::uint32_t number(const Json& j, const std::string& path, const char* key) {
    const Json& v = at(j, path, key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > 1'000'000) throw Bad{path + "/" + key, "expected a number 0..1000000"};
    return v.get<std::uint32_t>();
}

bool flag(const Json& j, const std::string& path, const char* key, bool fallback) {
    if (!j.contains(key)) return fallback;
    if (!j.at(key).is_boolean()) throw Bad{path + "/" + key, "expected true or false"};
    return j.at(key).get<bool>();
}

const Json& list(const Json& j, const std::string& path, const char* key) {
    static const Json empty = Json::array();
    if (!j.contains(key)) return empty;
    const Json& a = j.at(key);
    if (!a.is_array()) throw Bad{path + "/" + key, "expected an array"};
    if (a.size() > r0_fixture_entries_max) throw Bad{path + "/" + key, "more than " + std::to_string(r0_fixture_entries_max) + " entries"};
    return a;
}

Rect rect(const Json& j, const std::string& path, const char* key) {
    const Json& a = at(j, path, key);
    const std::string p = path + "/" + key;
    if (!a.is_array() || a.size() != 4) throw Bad{p, "expected [left, top, right, bottom]"};
    std::int32_t v[4];
    for (std::size_t i = 0; i < 4; ++i) {
        if (!a[i].is_number_integer() || a[i].get<std::int64_t>() < -32768 || a[i].get<std::int64_t>() > 32768)
            throw Bad{p + "/" + std::to_string(i), "expected an integer -32768..32768"};
        v[i] = a[i].get<std::int32_t>();
    }
    if (v[2] <= v[0] || v[3] <= v[1]) throw Bad{p, "empty rectangle"};
    return Rect{v[0], v[1], v[2], v[3]};
}

Framework framework(const std::string& name, const std::string& path) {
    for (Framework f : {Framework::Win32, Framework::WinForms, Framework::Wpf, Framework::Electron}) {
        if (to_string(f) == name) return f;
    }
    throw Bad{path, "unknown framework '" + name + "' (win32, winforms, wpf, electron)"};
}

R0Window window_from(const Json& j, const std::string& p) {
    only_keys(j, p, {"id", "framework", "bounds", "controls"});
    R0Window w;
    w.id = number(j, p, "id");
    if (w.id == 0) throw Bad{p + "/id", "window ids start at 1"};
    w.framework = framework(str(j, p, "framework"), p + "/framework");
    w.bounds = rect(j, p, "bounds");
    const Json& cs = list(j, p, "controls");
    for (std::size_t i = 0; i < cs.size(); ++i) {
        const std::string cp = p + "/controls/" + std::to_string(i);
        only_keys(cs[i], cp, {"id", "kind", "value", "enabled", "readable"});
        R0Control c;
        c.id = number(cs[i], cp, "id");
        const std::string kind = str(cs[i], cp, "kind");
        if (kind != "edit" && kind != "button") throw Bad{cp + "/kind", "expected \"edit\" or \"button\""};
        c.button = kind == "button";
        if (cs[i].contains("value") && !cs[i].at("value").is_null()) c.value = str(cs[i], cp, "value");
        c.enabled = flag(cs[i], cp, "enabled", true);
        c.readable = flag(cs[i], cp, "readable", true);
        w.controls.push_back(c);
    }
    return w;
}

TaskStep step_from(const Json& j, const std::string& p) {
    TaskStep s;
    const std::string op = str(j, p, "op");
    const auto parsed = step_op_from(op);
    if (!parsed) throw Bad{p + "/op", "unknown operation '" + op + "'"};
    s.op = *parsed;
    switch (s.op) {
        case StepOp::FileWrite: only_keys(j, p, {"op", "path", "bytes"}); s.path = path_field(j, p, "path"); s.bytes = str(j, p, "bytes"); break;
        case StepOp::FileMkdir: only_keys(j, p, {"op", "path"}); s.path = path_field(j, p, "path"); break;
        case StepOp::FileMove: only_keys(j, p, {"op", "path", "to"}); s.path = path_field(j, p, "path"); s.to = path_field(j, p, "to"); break;
        case StepOp::UiType:
            only_keys(j, p, {"op", "window", "element", "text"});
            s.window = number(j, p, "window"); s.element = number(j, p, "element"); s.text = str(j, p, "text"); break;
        case StepOp::UiMove: only_keys(j, p, {"op", "window", "rect"}); s.window = number(j, p, "window"); s.rect = rect(j, p, "rect"); break;
        case StepOp::UiInvoke: only_keys(j, p, {"op", "window", "element"}); s.window = number(j, p, "window"); s.element = number(j, p, "element"); break;
    }
    return s;
}

R0Fixture fixture_from(const Json& j) {
    only_keys(j, "", {"format", "name", "summary", "files", "windows", "steps", "others", "allow_irreversible"});
    if (str(j, "", "format") != r0_fixture_format) throw Bad{"/format", "expected \"" + std::string(r0_fixture_format) + "\""};
    R0Fixture f;
    f.name = str(j, "", "name");
    if (f.name.empty()) throw Bad{"/name", "empty"};
    if (j.contains("summary")) f.summary = str(j, "", "summary");
    f.allow_irreversible = flag(j, "", "allow_irreversible", false);
    const Json& files = list(j, "", "files");
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string p = "/files/" + std::to_string(i);
        only_keys(files[i], p, {"path", "folder", "bytes"});
        const std::string path = path_field(files[i], p, "path");
        const std::string parent = parent_of(path);
        if (!parent.empty() && (f.initial.fs.count(parent) == 0 || !f.initial.fs.at(parent).folder))
            throw Bad{p + "/path", "its folder '" + parent + "' is not listed before it"};
        if (f.initial.fs.count(path) != 0) throw Bad{p + "/path", "listed twice"};
        const bool folder = flag(files[i], p, "folder", false);
        f.initial.fs[path] = FsEntry{folder, folder ? "" : str(files[i], p, "bytes")};
    }
    const Json& windows = list(j, "", "windows");
    std::set<WindowId> ids;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        f.initial.windows.push_back(window_from(windows[i], "/windows/" + std::to_string(i)));
        if (!ids.insert(f.initial.windows.back().id).second) throw Bad{"/windows/" + std::to_string(i) + "/id", "duplicate id"};
    }
    const Json& steps = list(j, "", "steps");
    if (steps.empty()) throw Bad{"/steps", "a task needs at least one step"};
    if (steps.size() > task_steps_max) throw Bad{"/steps", "more than " + std::to_string(task_steps_max) + " steps"};
    for (std::size_t i = 0; i < steps.size(); ++i) f.steps.push_back(step_from(steps[i], "/steps/" + std::to_string(i)));
    const Json& others = list(j, "", "others");
    for (std::size_t i = 0; i < others.size(); ++i) {
        const std::string p = "/others/" + std::to_string(i);
        only_keys(others[i], p, {"after_op", "path", "bytes"});
        f.others.push_back(OtherWrite{number(others[i], p, "after_op"), path_field(others[i], p, "path"), str(others[i], p, "bytes")});
    }
    return f;
}

Json rect_json(const Rect& r) { return Json::array({r.left, r.top, r.right, r.bottom}); }

}  // namespace

R0FixtureOrError r0_fixture_from_json(const nlohmann::ordered_json& j) {
    try {
        return {fixture_from(j), ""};
    } catch (const Bad& b) {
        return {std::nullopt, b.path + ": " + b.reason};
    } catch (const nlohmann::json::exception& e) {
        return {std::nullopt, std::string("/: ") + e.what()};
    }
}

R0FixtureOrError r0_fixture_from_text(const std::string& text) {
    if (text.size() > r0_fixture_bytes_max) return {std::nullopt, "/: more than " + std::to_string(r0_fixture_bytes_max) + " bytes"};
    auto parsed = parse_json_strict<Json>(text);
    if (const auto* e = std::get_if<JsonTextError>(&parsed)) return {std::nullopt, (e->pointer.empty() ? "/" : e->pointer) + ": " + e->message};
    return r0_fixture_from_json(std::get<Json>(parsed));
}

nlohmann::ordered_json r0_fixture_to_json(const R0Fixture& f) {
    Json j;
    j["format"] = r0_fixture_format;
    j["name"] = f.name;
    j["summary"] = f.summary;
    j["files"] = Json::array();
    for (const auto& [path, e] : f.initial.fs) {
        Json entry{{"path", path}};
        if (e.folder) entry["folder"] = true;
        else entry["bytes"] = e.bytes;
        j["files"].push_back(entry);
    }
    j["windows"] = Json::array();
    for (const R0Window& w : f.initial.windows) {
        Json win{{"id", w.id}, {"framework", to_string(w.framework)}, {"bounds", rect_json(w.bounds)}, {"controls", Json::array()}};
        for (const R0Control& c : w.controls) {
            Json cj{{"id", c.id}, {"kind", c.button ? "button" : "edit"}};
            if (!c.button) cj["value"] = c.value ? Json(*c.value) : Json(nullptr);
            if (!c.enabled) cj["enabled"] = false;
            if (!c.readable) cj["readable"] = false;
            win["controls"].push_back(cj);
        }
        j["windows"].push_back(win);
    }
    j["steps"] = Json::array();
    for (const TaskStep& s : f.steps) {
        Json sj{{"op", to_string(s.op)}};
        switch (s.op) {
            case StepOp::FileWrite: sj["path"] = s.path; sj["bytes"] = s.bytes; break;
            case StepOp::FileMkdir: sj["path"] = s.path; break;
            case StepOp::FileMove: sj["path"] = s.path; sj["to"] = s.to; break;
            case StepOp::UiType: sj["window"] = s.window; sj["element"] = s.element; sj["text"] = s.text; break;
            case StepOp::UiMove: sj["window"] = s.window; sj["rect"] = rect_json(s.rect); break;
            case StepOp::UiInvoke: sj["window"] = s.window; sj["element"] = s.element; break;
        }
        j["steps"].push_back(sj);
    }
    j["others"] = Json::array();
    for (const OtherWrite& o : f.others) j["others"].push_back(Json{{"after_op", o.after_op}, {"path", o.path}, {"bytes", o.bytes}});
    j["allow_irreversible"] = f.allow_irreversible;
    return j;
}

}  // namespace deskcheck::sim
