// The failure_leaves_nothing campaign (properties/r0_campaign.h).
#include "properties/r0_campaign.h"

#include <algorithm>

#include "properties/r0_bench.h"
#include "properties/r0_check.h"

namespace deskcheck::r0 {
namespace {

class RecordingChoices final : public sim::R0Choices {
public:
    RecordingChoices(sim::R0Choices& inner, std::vector<std::uint32_t>& out) : inner_(inner), out_(out) {}
    std::uint32_t pick(std::uint32_t bound) override {
        const std::uint32_t v = inner_.pick(bound);
        out_.push_back(v);
        return v;
    }

private:
    sim::R0Choices& inner_;
    std::vector<std::uint32_t>& out_;
};

R0CaseResult run_with(sim::R0Choices& source, const UndoPolicy* policy) {
    R0CaseResult r;
    RecordingChoices c(source, r.choices);
    r.fixture = sim::generate_r0_fixture(c);
    std::size_t ops = 0;
    {
        auto dry_adapter = make_adapter("deskcheck", nullptr);
        sim::World dry(r.fixture.initial, r.fixture.others, std::nullopt);
        dry_adapter->apply(dry, r.fixture, std::nullopt, r.fixture.allow_irreversible);
        ops = dry.ops();
    }
    r.point = sim::generate_r0_failure(c, r.fixture, ops);
    auto adapter = make_adapter("deskcheck", policy);
    const R0Run run = r.point.at_operation
                          ? run_once(*adapter, r.fixture, std::nullopt, r.point.fault, r.fixture.allow_irreversible)
                          : run_once(*adapter, r.fixture, r.point.step, std::nullopt, r.fixture.allow_irreversible);
    r.violation = failure_leaves_nothing(run);
    return r;
}

std::size_t size_of(const R0CaseResult& c) {
    std::size_t s = c.fixture.steps.size() * 1000 + c.fixture.initial.fs.size() * 100 + c.fixture.others.size() * 100 +
                    c.fixture.initial.windows.size() * 100;
    for (const std::uint32_t v : c.choices) s += v;
    return s;
}

}  // namespace

R0CaseResult run_r0_case(const std::vector<std::uint32_t>& choices, const UndoPolicy* policy) {
    sim::R0ListChoices c(choices);
    return run_with(c, policy);
}

R0CaseResult run_r0_case(sim::Prng& rng, const UndoPolicy* policy) {
    sim::R0PrngChoices c(rng);
    return run_with(c, policy);
}

R0CaseResult shrink_r0_case(const R0CaseResult& failing, const UndoPolicy* policy) {
    R0CaseResult best = failing;
    std::size_t attempts = 0;
    auto try_candidate = [&](std::vector<std::uint32_t> candidate) {
        if (attempts >= r0_shrink_attempts_max) return false;
        ++attempts;
        R0CaseResult r = run_r0_case(candidate, policy);
        if (!r.violation || size_of(r) >= size_of(best)) return false;
        best = std::move(r);
        return true;
    };
    bool progress = true;
    while (progress && attempts < r0_shrink_attempts_max) {
        progress = false;
        for (std::size_t i = 0; i < best.choices.size(); ++i) {  // delete one decision
            std::vector<std::uint32_t> c = best.choices;
            c.erase(c.begin() + static_cast<std::ptrdiff_t>(i));
            if (try_candidate(std::move(c))) progress = true;
        }
        for (std::size_t i = 0; i < best.choices.size(); ++i) {  // make one decision simpler
            for (const std::uint32_t v : {0u, best.choices[i] / 2, best.choices[i] > 0 ? best.choices[i] - 1 : 0u}) {
                if (v >= best.choices[i]) continue;
                std::vector<std::uint32_t> c = best.choices;
                c[i] = v;
                if (try_candidate(std::move(c))) {
                    progress = true;
                    break;
                }
            }
        }
    }
    return best;
}

R0CampaignResult run_r0_campaign(std::uint64_t seed, std::size_t cases, const UndoPolicy* policy) {
    R0CampaignResult out;
    out.seed = seed;
    sim::Prng master(seed);
    for (std::size_t i = 0; i < cases; ++i) {
        sim::Prng rng = master.split();
        R0CaseResult r = run_r0_case(rng, policy);
        ++out.cases;
        out.at_operation += r.point.at_operation ? 1 : 0;
        out.with_others += r.fixture.others.empty() ? 0 : 1;
        out.with_ui += r.fixture.initial.windows.empty() ? 0 : 1;
        bool null_value = false;
        for (const auto& w : r.fixture.initial.windows) {
            for (const auto& c : w.controls) null_value = null_value || (!c.button && !c.value);
        }
        out.null_values += null_value ? 1 : 0;
        if (r.violation) {
            out.violations = 1;
            out.first = r;
            out.shrunk = shrink_r0_case(r, policy);
            break;
        }
    }
    return out;
}

std::string describe_case(const R0CaseResult& c) {
    std::string s = std::to_string(c.fixture.steps.size()) + " step(s):";
    for (const TaskStep& t : c.fixture.steps) {
        s += " " + std::string(to_string(t.op));
        if (is_file_op(t.op)) s += " " + t.path + (t.op == StepOp::FileMove ? " -> " + t.to : "");
        else s += " w" + std::to_string(t.window) + (t.element != 0 ? "/e" + std::to_string(t.element) : "");
        s += ";";
    }
    if (c.point.at_operation) s += " operation " + std::to_string(c.point.fault.op) + " fails (" + std::string(sim::to_string(c.point.fault.kind)) + ")";
    else s += " the post-check of step " + std::to_string(c.point.step) + " fails";
    return s;
}

}  // namespace deskcheck::r0
