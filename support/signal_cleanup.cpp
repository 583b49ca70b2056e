#include "support/signal_cleanup.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

namespace fem {
namespace {

// Fixed slots the handler can read without allocating or locking: a path is copied in first,
// then the slot is marked used.
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<bool> claimed{false};
  char path[4096];
};
std::array<Slot, 256> slots;
volatile sig_atomic_t size_limit_reached = 0;

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

void remove_temporaries() {
  for (auto& slot : slots)
    if (slot.used.load()) ::unlink(slot.path);  // async-signal-safe
}

void on_stop(int signal) {
  remove_temporaries();
  // Ends the process the way the signal would have, so the caller sees it in the exit status.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void on_file_size_limit(int) { size_limit_reached = 1; }

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kStopSignals) sigaddset(&set, s);
  return set;
}

}  // namespace

void install_signal_cleanup() {
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  action.sa_handler = on_stop;
  for (int s : kStopSignals) ::sigaction(s, &action, nullptr);
  action.sa_handler = on_file_size_limit;
  ::sigaction(SIGXFSZ, &action, nullptr);
}

void register_temporary(const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.size() >= sizeof(Slot::path)) return;
  for (auto& slot : slots) {
    if (slot.claimed.exchange(true)) continue;
    std::memcpy(slot.path, text.c_str(), text.size() + 1);
    slot.used.store(true);
    return;
  }
}

void unregister_temporary(const std::filesystem::path& path) {
  for (auto& slot : slots)
    if (slot.used.load() && path.native() == slot.path) {
      slot.used.store(false);
      slot.claimed.store(false);
      return;
    }
}

bool file_size_limit_reached() { return size_limit_reached != 0; }

SignalsHeld::SignalsHeld() {
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

SignalsHeld::~SignalsHeld() {
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace fem
