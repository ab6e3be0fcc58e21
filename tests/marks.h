// expect_mark: a test says which path of the tool it means to reach (model/marks.h) and fails when
// its body did not reach it. Usage, first line of the test body:
//     const auto reached = expect_mark(Mark::gave_back_after_exception);
// Checked when `reached` goes out of scope (the end of the body). With marks compiled out (the
// release build) it only says so: the default and fuzz builds check.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdint>

#include "model/marks.h"

namespace deskcheck::testing {

class ExpectedMark {
public:
    explicit ExpectedMark(Mark m) : mark_(m), hits_before_(marks::hits(m)) {}
    ExpectedMark(const ExpectedMark&) = delete;
    ExpectedMark& operator=(const ExpectedMark&) = delete;
    ~ExpectedMark() {
        if (!marks::enabled) {
            BOOST_TEST_MESSAGE("marks are compiled out: mark " << to_string(mark_) << " not checked");
            return;
        }
        BOOST_TEST(reached(), "the tool never took the path marked " << to_string(mark_));
    }
    bool reached() const { return marks::hits(mark_) > hits_before_; }

private:
    Mark mark_;
    std::uint64_t hits_before_;
};

inline ExpectedMark expect_mark(Mark m) { return ExpectedMark(m); }

}  // namespace deskcheck::testing
