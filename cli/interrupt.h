// SIGINT / SIGTERM for the long-running commands (nightly, run, shrink): the handler only records
// the signal (a sig_atomic_t, no other work); the command looks at it at its next boundary (a
// campaign case, a shrink attempt, a child process's wait loop), stops, writes what it has, prints
// the summary so far marked "interrupted", and exits with exit_code_for(signal): 130 for SIGINT,
// 143 for SIGTERM.
#pragma once

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

}  // namespace deskcheck::cli
