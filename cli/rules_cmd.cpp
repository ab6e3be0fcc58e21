// deskcheck rules: the rule tables, printed from the rule sets' own rows.
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

struct PromiseRow {
    std::string action;
    ActionFacts facts;
};

std::vector<PromiseRow> promise_rows() {
    std::vector<PromiseRow> out;
    out.push_back({"select_all (ctrl+a)", {ActionKind::SelectAll, HotkeyIntent::Other, ClickState::None, ""}});
    for (auto intent : {HotkeyIntent::Save, HotkeyIntent::Edit, HotkeyIntent::Navigate, HotkeyIntent::Focus, HotkeyIntent::Other}) {
        out.push_back({"hotkey (" + std::string(to_string(intent)) + ")", {ActionKind::Hotkey, intent, ClickState::None, ""}});
    }
    out.push_back({"type_text", {ActionKind::TypeText, HotkeyIntent::Other, ClickState::None, "x"}});
    out.push_back({"type_with_navigation", {ActionKind::TypeWithNavigation, HotkeyIntent::Other, ClickState::None, "x\t"}});
    for (auto s : {ClickState::Toggle, ClickState::Expand, ClickState::Select}) {
        out.push_back({"click_stateful (" + std::string(to_string(s)) + ")", {ActionKind::ClickStateful, HotkeyIntent::Other, s, ""}});
    }
    out.push_back({"unverifiable", {ActionKind::Unverifiable, HotkeyIntent::Other, ClickState::None, ""}});
    return out;
}

nlohmann::ordered_json rules_json(const RuleSet& rules) {
    nlohmann::ordered_json j;
    j["name"] = rules.name;
    j["summary"] = rules.summary;
    j["settles"] = rules.settles;
    j["settles_within_ms"] = rules.settles_within_ms;
    j["rules"] = nlohmann::ordered_json::array();
    for (const Rule& r : rules.rules) {
        j["rules"].push_back({{"kind", to_string(r.kind)}, {"id", r.id}, {"condition", r.condition},
                              {"verdict", to_string(r.verdict)}, {"spec", r.spec}});
    }
    j["promises"] = nlohmann::ordered_json::array();
    for (const auto& p : promise_rows()) {
        j["promises"].push_back({{"action", p.action}, {"promise", to_string(rules.promise_of(p.facts))}});
    }
    return j;
}

void print_rules_text(const RuleSet& rules, std::ostream& out) {
    out << "rule set: " << rules.name << "\n  " << rules.summary << "\n";
    out << "  reads: " << (rules.settles ? "waits until the app's latency bound has passed and the state is stable (D-3), for a bound of up to " +
                                                               std::to_string(rules.settles_within_ms) + " ms"
                                         : std::string("one immediate read after the action, as the seed"))
        << "\n\n";
    out << std::left << "  " << std::setw(22) << "ACTION KIND" << std::setw(36) << "RULE" << std::setw(10) << "VERDICT"
        << std::setw(14) << "SPEC" << "CONDITION\n";
    for (const Rule& r : rules.rules) {
        out << "  " << std::setw(22) << to_string(r.kind) << std::setw(36) << r.id << std::setw(10) << to_string(r.verdict)
            << std::setw(14) << r.spec << r.condition << "\n";
    }
    out << "\n  promises (V-9): what each action kind is checked for\n";
    for (const auto& p : promise_rows()) {
        out << "  " << std::setw(34) << p.action << to_string(rules.promise_of(p.facts)) << "\n";
    }
    out << "\n  rows are tried in order for the action's kind; the first whose condition holds decides;\n"
           "  when none holds the verdict is Unknown (V-1).\n";
}

nlohmann::ordered_json observation_rules_json() {
    nlohmann::ordered_json j;
    j["name"] = "observation";
    j["summary"] = "judging an observation snapshot (seed 004): the first row whose condition holds decides";
    j["snapshot_fields"] = nlohmann::ordered_json::array();
    for (const auto f : snapshot_field_names()) j["snapshot_fields"].push_back(f);
    j["rules"] = nlohmann::ordered_json::array();
    for (const ObservationRule& r : observation_rules()) {
        j["rules"].push_back({{"order", r.order}, {"id", r.reason}, {"condition", r.condition},
                              {"outcome", to_string(r.outcome)}, {"does_not_mean", r.does_not_mean}, {"spec", r.spec}});
    }
    return j;
}

void print_observation_rules_text(std::ostream& out) {
    out << "observation rules (seed 004, O-1..O-3): judging a snapshot of (action, contract, snapshot, previous?)\n"
           "  no clock: freshness is decided by the caller and passed in\n\n";
    out << std::left << "  " << std::setw(4) << "#" << std::setw(44) << "RULE" << std::setw(16) << "OUTCOME"
        << std::setw(13) << "SPEC" << "CONDITION\n";
    for (const ObservationRule& r : observation_rules()) {
        out << "  " << std::setw(4) << static_cast<int>(r.order) << std::setw(44) << r.reason << std::setw(16)
            << to_string(r.outcome) << std::setw(13) << r.spec << r.condition << "\n"
            << "  " << std::setw(77) << "" << "does not mean: " << r.does_not_mean << "\n";
    }
    out << "\n  rows are tried in order; the first whose condition holds decides; the last always holds.\n"
           "  observed is not accepted (O-3); blocked, needs_evidence and not_observed never lead to a re-send (B-2).\n";
}

// docs/verdict-rules.md's tables are this output, verbatim (tests/cli/rules_doc.sh compares).
void print_rules_markdown(const RuleSet& rules, std::ostream& out) {
    out << "Rule set `" << rules.name << "`: " << markdown_cell(rules.summary) << " Reads: "
        << (rules.settles ? "waits until the app's latency bound has passed and the state is stable (D-3), for a bound of up to " +
                                  std::to_string(rules.settles_within_ms) + " ms."
                          : std::string("one immediate read after the action, as the seed."))
        << "\n\n| action kind | rule | verdict | SPEC | condition |\n|---|---|---|---|---|\n";
    for (const Rule& r : rules.rules) {
        out << "| " << to_string(r.kind) << " | `" << r.id << "` | " << to_string(r.verdict) << " | " << markdown_cell(r.spec)
            << " | " << markdown_cell(r.condition) << " |\n";
    }
    out << "\n| action kind | promises (V-9): what it is checked for |\n|---|---|\n";
    for (const auto& p : promise_rows()) out << "| " << markdown_cell(p.action) << " | " << markdown_cell(to_string(rules.promise_of(p.facts))) << " |\n";
}

void print_observation_rules_markdown(std::ostream& out) {
    out << "| # | reason | outcome | SPEC | condition | does not mean |\n|---|---|---|---|---|---|\n";
    for (const ObservationRule& r : observation_rules()) {
        out << "| " << static_cast<int>(r.order) << " | `" << r.reason << "` | " << to_string(r.outcome) << " | "
            << markdown_cell(r.spec) << " | " << markdown_cell(r.condition) << " | " << markdown_cell(r.does_not_mean) << " |\n";
    }
}

}  // namespace

int cmd_rules(const Argv& argv) {
    Args args("rules", argv, {"--json", "--markdown", "--help"}, {"--rules"});
    if (!args.ok()) return usage_error("rules", args.error());
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck rules [--rules published|current|observation] [--json | --markdown]\n"
                     "prints the verdict rule table of one rule set (published and current when --rules is not given),\n"
                     "or with --rules observation the ten ordered rules that judge an observation snapshot (O-1),\n"
                     "from the rule sets' own rows: the printed table cannot drift from the code. A verdict table\n"
                     "ends with what each action kind promises (V-9). --markdown: the tables of docs/verdict-rules.md.\n"
                     "exit: 0 printed, 2 bad usage (an unknown rule set)\n";
        return exit_ok;
    }
    if (!args.positional().empty()) return usage_error("rules", "unexpected argument '" + args.positional().front() + "'");
    if (args.flag("--json") && args.flag("--markdown")) return usage_error("rules", "--json and --markdown exclude each other");
    if (args.option("--rules") == "observation") {
        if (args.flag("--markdown")) {
            print_observation_rules_markdown(std::cout);
        } else if (args.flag("--json")) {
            std::cout << nlohmann::ordered_json{{"observation_rules", observation_rules_json()}}.dump(2) << "\n";
        } else {
            print_observation_rules_text(std::cout);
        }
        return exit_ok;
    }
    std::vector<const RuleSet*> sets;
    if (const auto name = args.option("--rules")) {
        const RuleSet* r = props::rules_named(*name);
        if (r == nullptr) return usage_error("rules", "unknown rule set '" + *name + "' (expected published, current or observation)");
        sets.push_back(r);
    } else {
        for (const RuleSet* r : all_rule_sets()) sets.push_back(r);
    }
    if (args.flag("--json")) {
        nlohmann::ordered_json j;
        j["rule_sets"] = nlohmann::ordered_json::array();
        for (const RuleSet* r : sets) j["rule_sets"].push_back(rules_json(*r));
        std::cout << dump_json(j) << "\n";
        return exit_ok;
    }
    for (std::size_t i = 0; i < sets.size(); ++i) {
        if (i != 0) std::cout << "\n";
        if (args.flag("--markdown")) {
            print_rules_markdown(*sets[i], std::cout);
        } else {
            print_rules_text(*sets[i], std::cout);
        }
    }
    return exit_ok;
}

}  // namespace deskcheck::cli
