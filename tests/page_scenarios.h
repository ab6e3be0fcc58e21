// A heavy scenario for the timeline page's size and render-time tests: 32 steps, each a single
// action (F-5: its own borrow and give-back) on a slow app, so every step polls its settle window
// (many reads), with a user typing in between.
#pragma once

#include "sim/scenario.h"
#include "tests/scenario_builders.h"

namespace deskcheck::testing {

inline sim::Scenario thirty_two_slow_steps() {
    auto s = desk();
    app(s, 1, 300, 900);
    app(s, 2, 0, 0);
    auto& chat = window(s, 2, 2, Rect{1000, 0, 1900, 800});
    control(chat, 21, sim::ControlKind::Edit, Rect{1010, 10, 1800, 40}, "chat");
    auto& notes = window(s, 1, 1, Rect{0, 0, 900, 700});
    auto& body = control(notes, 11, sim::ControlKind::Edit, Rect{10, 10, 800, 400}, "body");
    body.multiline = true;
    s.foreground = 2;
    s.batch = false;
    for (int i = 0; i < 32; ++i) {
        sim::Step st;
        st.kind = sim::StepKind::Type;
        st.window = 1;
        st.control = 11;
        st.text = "line " + std::to_string(i) + " <&>\n";
        s.steps.push_back(st);
    }
    for (const TimeMs at : {1000, 7000, 15000}) {
        sim::Event e;
        e.at_ms = at;
        e.kind = sim::EventKind::UserTypes;
        e.text = "typed by the user";
        s.events.push_back(e);
    }
    return s;
}

}  // namespace deskcheck::testing
