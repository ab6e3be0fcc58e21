// SIGINT / SIGTERM for the long-running commands (nightly, run, shrink): the handler only records
// the signal (a sig_atomic_t, no other work); the command looks at it at its next boundary (a
// campaign case, a shrink attempt, a child process's wait loop), stops, writes what it has, prints
// the summary so far marked "interrupted", and exits with exit_code_for(signal): 130 for SIGINT,
// 143 for SIGTERM.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace deskcheck::cli {

// Installs the recording handler for SIGINT and SIGTERM (SA_RESTART; both blocked while it runs).
void install_interrupt_handlers();

// The first signal received (SIGINT or SIGTERM), 0 when none.
int interrupted_by();
bool interrupted();
// How many signals arrived so far: a child process started after the first one is stopped only by
// a later one (signals_received() > the count when it started).
int signals_received();

// 130 (SIGINT), 143 (SIGTERM): 128 + the signal, as a shell reports it.
int exit_code_for(int signal);
std::string signal_name(int signal);  // "SIGINT", "SIGTERM"

// For a command whose loops live below cli/ (harness/ takes a std::function<bool()> and looks at
// it at each boundary and inside each wait for a child): installs the handlers, returns the
// predicate "a signal arrived".
std::function<bool()> stop_on_interrupt();
// How such a command says it stopped, as `run` does. The line (text output): "interrupted by
// SIGINT after PROGRESS: WHAT" ("after 3 of 14 fixtures: the rows so far"); the "interrupted"
// member of its JSON: "SIGINT" / "SIGTERM", or null when it was not interrupted; its exit code:
// 130 / 143 when interrupted, else `otherwise`.
std::string interrupted_line(const std::string& progress, const std::string& what = "the rows so far");
nlohmann::ordered_json interrupted_json();
int exit_code_or(int otherwise);

// A campaign's progress on stderr, a line at every tenth of the cases and at the end:
// "  progress: DONE/TOTAL cases".
std::function<void(std::uint32_t done, std::uint32_t total)> campaign_progress();

}  // namespace deskcheck::cli
