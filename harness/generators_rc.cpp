#include "harness/generators_rc.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <ostream>

#include "harness/deterministic.h"
#include "sim/scenario_json.h"
#include "sim/trace.h"
#include "sim/validate.h"

namespace deskcheck::sim {
void showValue(const Scenario& scenario, std::ostream& os) { os << encode_scenario_text(scenario); }
}  // namespace deskcheck::sim

namespace deskcheck::props::rcgen {
namespace {

// More numbers than any scenario of the property options reads; the unread tail is cut.
constexpr std::size_t choices_drawn = 1024;

// RapidCheck's lazy sequence over ChoiceShrinks' slots (copyable: RapidCheck copies sequences).
class ShrinkSeq {
public:
    explicit ShrinkSeq(const ChoiceVector& values) : shrinks_(std::make_shared<const ChoiceShrinks>(values)) {}
    rc::Maybe<ChoiceVector> operator()() {
        while (next_ < shrinks_->size()) {
            if (auto candidate = shrinks_->at(next_++)) return std::move(*candidate);
        }
        return rc::Nothing;
    }

private:
    std::shared_ptr<const ChoiceShrinks> shrinks_;
    std::size_t next_ = 0;
};

}  // namespace

rc::Gen<ChoiceVector> choice_vectors(const sim::BuildOptions& build) {
    return rc::Gen<ChoiceVector>([build](const rc::Random& random, int) {
        rc::Random r = random;
        ChoiceVector values(choices_drawn);
        for (auto& v : values) v = static_cast<std::uint32_t>(r.next());
        sim::VectorChoices read(values);
        (void)sim::build_scenario(read, build);
        assert(read.used() <= values.size());
        values.resize(std::min(read.used(), values.size()));
        return rc::shrinkable::shrinkRecur(std::move(values), [](const ChoiceVector& v) {
            return rc::Seq<ChoiceVector>(ShrinkSeq(v));
        });
    });
}

rc::Gen<sim::Scenario> scenarios(const GenOptions& options) {
    return rc::gen::map(choice_vectors(options.build), [options](const ChoiceVector& values) {
        sim::Scenario s = sim::build_scenario_from_vector(values, options.build);
        s.rules = options.rules;
        return s;
    });
}

void classify(const sim::Scenario& scenario, const RunResult& run) {
    const auto tags = coverage_tags(scenario, run);
    for (const char* tag : classified_tags) {
        RC_CLASSIFY(std::binary_search(tags.begin(), tags.end(), std::string(tag)), std::string(tag));
    }
}

void require_holds(const CheckResult& result, const RunResult& run) {
    if (result.status == CheckStatus::CannotJudge) RC_DISCARD("cannot judge: " + result.why_not_judged);
    if (result.status == CheckStatus::Holds) return;
    assert(result.violation.has_value());
    const Violation& v = *result.violation;
    const std::string where = v.step ? " at step " + std::to_string(*v.step) : std::string();
    RC_LOG() << "violation of " << v.property << where << ": " << v.explanation << "\n"
             << "rules: " << run.rules << "\n"
             << "trace:\n"
             << sim::to_text(run.trace());
    RC_FAIL(v.property + where + ": " + v.explanation);
}

void property_holds(std::string_view check, const sim::Scenario& scenario, const RunOptions& options) {
    const NamedCheck* named = find_check(check);
    RC_ASSERT(named != nullptr);
    const auto invalid = sim::validate(scenario);
    RC_ASSERT(!invalid.has_value());
    const RunResult run = run_scenario(scenario, options);
    classify(scenario, run);
    require_holds(run_check(*named, scenario, run, options), run);
}

}  // namespace deskcheck::props::rcgen
