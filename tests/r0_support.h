// Shared by the R0 test files: the fixture files of corpus/r0/ (tests run from the checkout).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "sim/r0_fixture_json.h"

namespace deskcheck::r0::test {

inline std::vector<sim::R0Fixture> corpus_fixtures() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator("corpus/r0")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<sim::R0Fixture> out;
    for (const auto& f : files) {
        std::ifstream in(f);
        std::stringstream text;
        text << in.rdbuf();
        auto decoded = sim::r0_fixture_from_text(text.str());
        if (!decoded.fixture) throw std::runtime_error(f.string() + ": " + decoded.error);
        out.push_back(*decoded.fixture);
    }
    return out;
}

}  // namespace deskcheck::r0::test
