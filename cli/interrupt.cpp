#include "cli/interrupt.h"

#include <algorithm>
#include <iostream>

#include <csignal>

#include "cli/files.h"

namespace deskcheck::cli {

namespace {

// The only state a signal handler may touch (C++ [support.signal]): written there, read elsewhere.
volatile std::sig_atomic_t first_signal = 0;
volatile std::sig_atomic_t signal_count = 0;

extern "C" void record_signal(int signal) {
    if (first_signal == 0) first_signal = signal;
    signal_count = signal_count + 1;  // both signals are blocked while this runs: no lost update
}

}  // namespace

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = record_signal;
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

int interrupted_by() { return first_signal; }
bool interrupted() { return first_signal != 0; }
int signals_received() { return signal_count; }

int exit_code_for(int signal) {
    if (signal == SIGTERM) return exit_interrupted_sigterm;
    if (signal == SIGINT) return exit_interrupted_sigint;
    return 128 + signal;
}

std::function<bool()> stop_on_interrupt() {
    install_interrupt_handlers();
    return [] { return interrupted(); };
}

std::string interrupted_line(const std::string& progress, const std::string& what) {
    return "interrupted by " + signal_name(interrupted_by()) + " after " + progress + ": " + what;
}

nlohmann::ordered_json interrupted_json() {
    return interrupted() ? nlohmann::ordered_json(signal_name(interrupted_by())) : nlohmann::ordered_json(nullptr);
}

int exit_code_or(int otherwise) { return interrupted() ? exit_code_for(interrupted_by()) : otherwise; }

std::string signal_name(int signal) {
    if (signal == SIGINT) return "SIGINT";
    if (signal == SIGTERM) return "SIGTERM";
    return "signal " + std::to_string(signal);
}

std::function<void(std::uint32_t, std::uint32_t)> campaign_progress() {
    return [next_report = std::uint32_t{0}](std::uint32_t done, std::uint32_t total) mutable {
        if (done * 10 >= next_report * total || done == total) {
            std::cerr << "  progress: " << done << "/" << total << " cases" << std::endl;
            next_report = done * 10 / std::max<std::uint32_t>(1, total) + 1;
        }
    };
}

}  // namespace deskcheck::cli
