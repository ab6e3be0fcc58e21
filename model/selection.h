// A text selection: what the Desktop port reads (model/desktop.h) and the verdict rules compare
// (model/verdict.h), in a header of its own so the port does not depend on the rule table.
#pragma once

#include <cstdint>

namespace deskcheck {

// A text selection in UTF-8 code units: [start, start + length).
struct Selection {
    std::int64_t start = 0;
    std::int64_t length = 0;
    friend bool operator==(const Selection&, const Selection&) = default;
};

}  // namespace deskcheck
