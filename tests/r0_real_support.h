// Shared by the real-folder R0 tests (tests/r0_real_tests.cpp, tests/r0_links_tests.cpp).
#pragma once

#include <vector>

#include "harness/r0_real.h"
#include "tests/r0_support.h"

namespace deskcheck::r0::test {

// The seed's five file fixtures and the campaign's finding (the UI ones are skipped on real folders).
inline std::vector<sim::R0Fixture> file_fixtures() {
    std::vector<sim::R0Fixture> out;
    for (auto& f : corpus_fixtures()) {
        if (file_only(f)) out.push_back(std::move(f));
    }
    return out;
}

}  // namespace deskcheck::r0::test
