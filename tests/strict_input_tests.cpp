// Every JSON input read by one strict reader (json/strict_parse.h): a duplicate key is an error
// naming the key and its JSON pointer, never resolved silently (nlohmann/json keeps the last one).
// One case per input kind: scenario files, R0 fixtures, journal lines (the recovery's reader and
// the traceability check's), R0 adapter answers; and numbers outside their type: a journal step
// above 2^32 - 1 is an invalid line, named, never wrapped onto step 1.
#include <boost/test/unit_test.hpp>

#include <string>
#include <variant>

#include "host/journal_read.h"
#include "json/strict_parse.h"
#include "harness/r0_adapter_answer.h"
#include "harness/r0_bench.h"
#include "harness/r0_check.h"
#include "sim/r0_fixture_json.h"
#include "sim/scenario_json.h"
#include "tests/r0_support.h"

namespace {

using namespace deskcheck;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string error_of(std::string_view text) {
    auto parsed = parse_json_strict(text);
    const auto* e = std::get_if<JsonTextError>(&parsed);
    return e != nullptr ? to_string(*e) : "";
}

// A journal line as the tool writes it, with the given fields.
const std::string intent_line =
    R"({"task":"t","step":1,"op":"file.mkdir","status":"intent","before":{"path":"a","created_folders":["a"]}})";

}  // namespace

BOOST_AUTO_TEST_CASE(R7_strict_reader_names_a_duplicate_key_by_its_json_pointer) {
    BOOST_TEST(error_of(R"({"step":1,"step":2})") == R"(duplicate key "step" at /step)");
    BOOST_TEST(error_of(R"({"a":[{"x":1},{"b":{"c":1,"c":1}}]})") == R"(duplicate key "c" at /a/1/b/c)");
    BOOST_TEST(error_of(R"({"a/b~":{"k":1,"k":2}})") == R"(duplicate key "k" at /a~1b~0/k)");
    // The same key in two objects is no duplicate; nor is a repeated value.
    BOOST_TEST(error_of(R"({"a":{"k":1},"b":{"k":1},"c":[1,1]})").empty());
    // A NUL byte would end nlohmann/json's input early: refused, with its position.
    BOOST_TEST(error_of(std::string("{}\0{\"x\":1}", 10)) == "a NUL byte at byte 3 (not JSON text)");
    BOOST_TEST(contains(error_of("{\"a\":"), "truncated or invalid JSON at byte"));
}

BOOST_AUTO_TEST_CASE(R7_journal_line_with_a_duplicate_key_is_an_invalid_line_named_with_its_pointer) {
    const std::string dup = R"({"task":"t","step":1,"step":2,"op":"file.mkdir","status":"failed"})";
    const host::EntryOrError one = host::parse_journal_line(dup);
    BOOST_TEST(!one.entry.has_value());
    BOOST_TEST(one.error == R"(duplicate key "step" at /step)");
    const std::string nested = R"({"task":"t","step":1,"op":"file.mkdir","status":"intent","before":{"path":"a","path":"/etc","created_folders":[]}})";
    BOOST_TEST(host::parse_journal_line(nested).error == R"(duplicate key "path" at /before/path)");
    const host::EntriesOrError all = host::parse_journal({intent_line, intent_line, dup});
    BOOST_TEST(all.error == R"(line 3: duplicate key "step" at /step)");
}

BOOST_AUTO_TEST_CASE(R7_journal_step_0_or_above_2_to_the_32_is_an_invalid_line_never_wrapped) {
    const std::string wraps = R"({"task":"t","step":4294967297,"op":"file.mkdir","status":"intent","before":{"path":"a","created_folders":["a"]}})";
    const host::EntryOrError e = host::parse_journal_line(wraps);
    BOOST_TEST(!e.entry.has_value(), "step 4294967297 must not be read as step 1");
    BOOST_TEST(e.error == "step 4294967297 is beyond 4294967295");
    const std::string largest = R"({"task":"t","step":4294967295,"op":"file.mkdir","status":"failed"})";
    const host::EntryOrError ok = host::parse_journal_line(largest);
    BOOST_TEST_REQUIRE(ok.entry.has_value());
    BOOST_TEST(ok.entry->step == 4294967295u);
    BOOST_TEST(host::parse_journal({intent_line, wraps}).error == "line 2: step 4294967297 is beyond 4294967295");
    // Step 0 names no step: the journal's writer asserts on it, so a recovery journaling it aborted.
    const std::string zero = R"({"task":"t","step":0,"op":"file.mkdir","status":"intent","before":{"path":"a","created_folders":["a"]}})";
    BOOST_TEST(host::parse_journal_line(zero).error == "step 0 is no step (steps are numbered from 1)");
}

// The traceability check (harness/r0_check.cpp) reads the journal with its own parser: a
// duplicate key, or a step number that would wrap onto a real step, fails traceability, named.
BOOST_AUTO_TEST_CASE(R7_traceability_check_refuses_a_duplicate_key_and_a_wrapping_step) {
    const auto fixtures = r0::test::corpus_fixtures();
    BOOST_TEST_REQUIRE(!fixtures.empty());
    const sim::R0Fixture& f = fixtures.front();
    auto adapter = r0::make_adapter("deskcheck");
    r0::R0Run run = r0::run_once(*adapter, f, 1, std::nullopt, f.allow_irreversible);
    BOOST_TEST_REQUIRE(run.journal.has_value());
    BOOST_TEST_REQUIRE(!run.journal->empty());
    BOOST_TEST_REQUIRE(r0::judge_r0_run(run).traceability, "the run as the tool wrote it is traceable");
    const std::string original = run.journal->front();
    const auto at = original.find("\"step\":1");
    BOOST_TEST_REQUIRE(at != std::string::npos);

    run.journal->front() = original.substr(0, at) + "\"step\":1,\"step\":1" + original.substr(at + 8);
    r0::R0Judgement j = r0::judge_r0_run(run);
    BOOST_TEST(!j.traceability);
    std::string why;
    for (const auto& w : j.why) why += w + "\n";
    BOOST_TEST(contains(why, R"(duplicate key "step" at /step)"), why);

    run.journal->front() = original.substr(0, at) + "\"step\":4294967297" + original.substr(at + 8);
    j = r0::judge_r0_run(run);
    BOOST_TEST(!j.traceability, "step 4294967297 must not pass for step 1");
    why.clear();
    for (const auto& w : j.why) why += w + "\n";
    BOOST_TEST(contains(why, "step id out of range"), why);
}

BOOST_AUTO_TEST_CASE(R8_adapter_answer_with_a_duplicate_key_is_refused_with_its_pointer) {
    std::string why;
    const auto answer = r0::decode_adapter_answer(R"({"task":"t","executed":[1,2],"rolled_back":[2,1],"executed":[]})", why);
    BOOST_TEST(answer.is_discarded());
    BOOST_TEST(why == R"(has a duplicate key "executed" at /executed)");
    const auto nested = r0::decode_adapter_answer(R"({"lines":null,"x":{"error":"a","error":"b"}})", why);
    BOOST_TEST(nested.is_discarded());
    BOOST_TEST(why == R"(has a duplicate key "error" at /x/error)");
    BOOST_TEST(r0::decode_adapter_answer("[1]", why).is_discarded());
    BOOST_TEST(why == "is not a JSON object");
    BOOST_TEST(r0::decode_adapter_answer("this is not json", why).is_discarded());
    BOOST_TEST(why == "is not a JSON object");
    const auto fine = r0::decode_adapter_answer(R"({"task":"t","executed":[1],"rolled_back":[1]})", why);
    BOOST_TEST_REQUIRE(fine.is_object());
    BOOST_TEST(why.empty());
    BOOST_TEST(fine["executed"].size() == 1u);
}

BOOST_AUTO_TEST_CASE(R6_fixture_with_a_duplicate_key_is_refused_with_its_pointer) {
    const std::string dup = R"({"format":"deskcheck-r0-fixture/1","name":"n","summary":"","files":[],)"
                            R"("steps":[{"op":"file.mkdir","path":"a","path":"b"}]})";
    const sim::R0FixtureOrError r = sim::r0_fixture_from_text(dup);
    BOOST_TEST(!r.fixture.has_value());
    BOOST_TEST(r.error == R"(/steps/0/path: duplicate key "path")");
    const sim::R0FixtureOrError invalid = sim::r0_fixture_from_text("{\"format\":");
    BOOST_TEST(!invalid.fixture.has_value());
    BOOST_TEST(contains(invalid.error, "/: truncated or invalid JSON at byte"), invalid.error);
}

BOOST_AUTO_TEST_CASE(S1_scenario_with_a_nested_duplicate_key_is_refused_with_its_pointer) {
    const auto r = sim::decode_document(std::string_view(R"({"format":"deskcheck-scenario/1","seed":1,"steps":[{"kind":"type","kind":"type"}]})"));
    const auto* e = std::get_if<sim::DecodeError>(&r);
    BOOST_TEST_REQUIRE(e != nullptr);
    BOOST_TEST(e->message() == R"(/steps/0/kind: duplicate key "kind")");
}
