// R0 fixtures as JSON files (corpus/r0/*.json), format "deskcheck-r0-fixture/1":
//   {"format", "name", "summary",
//    "files":   [{"path", "folder": true} | {"path", "bytes"}],          the folder before the task
//    "windows": [{"id", "framework": "win32|winforms|wpf|electron", "bounds": [l,t,r,b],
//                 "controls": [{"id", "kind": "edit|button", "value": "..."|null, "enabled", "readable"}]}],
//    "steps":   [{"op": "file.write", "path", "bytes"} | {"op": "file.mkdir", "path"}
//                | {"op": "file.move", "path", "to"} | {"op": "ui.type", "window", "element", "text"}
//                | {"op": "ui.move", "window", "rect": [l,t,r,b]} | {"op": "ui.invoke", "window", "element"}],
//    "others":  [{"after_op", "path", "bytes"}],   files other programs add meanwhile
//    "allow_irreversible": false}
// Decoding never throws: a bad file gives one message naming the JSON path and what is wrong.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sim/r0_world.h"

namespace deskcheck::sim {

inline constexpr std::string_view r0_fixture_format = "deskcheck-r0-fixture/1";
inline constexpr std::size_t r0_fixture_bytes_max = 1 << 20;
inline constexpr std::size_t r0_fixture_entries_max = 256;

struct R0FixtureOrError {
    std::optional<R0Fixture> fixture;
    std::string error;  // "PATH: REASON" when !fixture
};

R0FixtureOrError r0_fixture_from_json(const nlohmann::ordered_json& j);
R0FixtureOrError r0_fixture_from_text(const std::string& text);
nlohmann::ordered_json r0_fixture_to_json(const R0Fixture& f);

}  // namespace deskcheck::sim
