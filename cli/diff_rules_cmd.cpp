// deskcheck diff-rules A B: the catalogued situations whose verdict differs between two rule sets.
#include <algorithm>
#include <iomanip>
#include <map>
#include <tuple>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/run.h"
#include "cli/args.h"
#include "cli/files.h"
#include "cli/commands.h"
#include "cli/situations.h"
#include "model/evidence.h"
#include "model/observation.h"
#include "model/verdict.h"

namespace deskcheck::cli {

namespace {

// One group of flips: an action kind, and the rule (and verdict) of each set that decided it.
struct FlipGroup {
    std::string kind;
    std::string verdict_a, rule_a, verdict_b, rule_b;
    std::size_t count = 0;
    std::string example;  // the shortest situation of the group
    auto key() const { return std::tie(kind, rule_a, verdict_a, rule_b, verdict_b); }
};

std::vector<FlipGroup> grouped(const std::vector<FlipGroup>& flips) {
    std::vector<FlipGroup> groups;
    for (const auto& f : flips) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const FlipGroup& g) { return g.key() == f.key(); });
        if (it == groups.end()) {
            groups.push_back(f);
            continue;
        }
        ++it->count;
        if (f.example.size() < it->example.size()) it->example = f.example;
    }
    std::stable_sort(groups.begin(), groups.end(), [](const FlipGroup& x, const FlipGroup& y) {
        return x.kind != y.kind ? x.kind < y.kind : x.count > y.count;
    });
    return groups;
}

}  // namespace

int cmd_diff_rules(const Argv& argv) {
    Args args("diff-rules", argv, {"--json", "--help", "--all"}, {});
    if (!args.ok()) return usage_error("diff-rules", args.error());
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck diff-rules A B [--all] [--json]\n"
                     "judges a fixed catalogue of situations with both rule sets; the situations whose verdict\n"
                     "differs are grouped by action kind and by the pair of rules that decided them, with a count\n"
                     "and the shortest example of each group. --all lists every situation too.\n"
                     "exit: 0 printed (whether or not verdicts differ), 2 bad usage (an unknown rule set)\n";
        return exit_ok;
    }
    if (args.positional().size() != 2) return usage_error("diff-rules", "expects two rule set names, e.g. diff-rules published current");
    const RuleSet* a = props::rules_named(args.positional()[0]);
    const RuleSet* b = props::rules_named(args.positional()[1]);
    if (a == nullptr) return usage_error("diff-rules", "unknown rule set '" + args.positional()[0] + "' (expected published or current)");
    if (b == nullptr) return usage_error("diff-rules", "unknown rule set '" + args.positional()[1] + "' (expected published or current)");
    const auto catalogue = situation_catalogue();
    nlohmann::ordered_json diffs = nlohmann::ordered_json::array();
    std::vector<FlipGroup> flips;
    std::ostringstream every;
    for (const auto& s : catalogue) {
        const Situation sit{s.action, s.before, s.after, Timing{s.settled}};
        const auto ja = judge(*a, sit);
        const auto jb = judge(*b, sit);
        if (ja.verdict == jb.verdict) continue;
        diffs.push_back({{"situation", s.label}, {"kind", to_string(s.action.kind)},
                         {"before", show_snapshot(s.before)}, {"after", show_snapshot(s.after)}, {"settled", s.settled},
                         {a->name, {{"verdict", to_string(ja.verdict)}, {"rule", ja.rule}}},
                         {b->name, {{"verdict", to_string(jb.verdict)}, {"rule", jb.rule}}}});
        flips.push_back({std::string(to_string(s.action.kind)), std::string(to_string(ja.verdict)), std::string(ja.rule),
                         std::string(to_string(jb.verdict)), std::string(jb.rule), 1, s.label});
        every << "  " << s.label << "\n      " << a->name << ": " << to_string(ja.verdict) << " (" << ja.rule << ")   "
              << b->name << ": " << to_string(jb.verdict) << " (" << jb.rule << ")\n";
    }
    const std::vector<FlipGroup> groups = grouped(flips);
    std::map<std::string, std::size_t> per_kind;
    for (const auto& f : flips) ++per_kind[f.kind];
    if (args.flag("--json")) {
        nlohmann::ordered_json g = nlohmann::ordered_json::array();
        for (const auto& x : groups) {
            g.push_back({{"kind", x.kind}, {a->name, {{"verdict", x.verdict_a}, {"rule", x.rule_a}}},
                         {b->name, {{"verdict", x.verdict_b}, {"rule", x.rule_b}}}, {"count", x.count}, {"example", x.example}});
        }
        nlohmann::ordered_json j{{"a", a->name}, {"b", b->name}, {"situations", catalogue.size()},
                                 {"differ", diffs.size()}, {"by_kind", per_kind}, {"groups", g}, {"differences", diffs}};
        std::cout << dump_json(j) << "\n";
        return exit_ok;
    }
    std::cout << "diff-rules " << a->name << " " << b->name << ": " << diffs.size() << " of " << catalogue.size()
              << " situations change verdict, in " << groups.size() << " groups (action kind, rule in " << a->name
              << " -> rule in " << b->name << ")\n  by action kind:";
    for (const auto& [kind, n] : per_kind) std::cout << " " << kind << " " << n << ";";
    std::cout << "\n";
    std::string kind;
    for (const auto& x : groups) {
        if (x.kind != kind) {
            kind = x.kind;
            std::cout << "\n" << kind << " (" << per_kind[kind] << ")\n";
        }
        std::cout << "  x" << std::left << std::setw(4) << x.count << std::right << " " << a->name << " " << x.verdict_a
                  << " (" << x.rule_a << ") -> " << b->name << " " << x.verdict_b << " (" << x.rule_b << ")\n"
                  << "        e.g. " << x.example << "\n";
    }
    if (args.flag("--all")) std::cout << "\nevery situation:\n" << every.str();
    else std::cout << "\n(--all lists all " << diffs.size() << " situations)\n";
    return exit_ok;
}

}  // namespace deskcheck::cli
