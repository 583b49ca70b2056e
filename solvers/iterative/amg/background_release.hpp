#pragma once
// Frees the AMG setup's large temporaries on threads of their own: giving gigabytes back to the
// system (unmapping, page tables) costs about a tenth of a second per gigabyte, which the setup
// need not wait for. The hierarchy holds one, so that the frees may run on into the solve.
#include <future>
#include <memory>
#include <utility>
#include <vector>

namespace fem::amg {

class BackgroundRelease {
 public:
  BackgroundRelease() = default;
  ~BackgroundRelease() {
    for (auto& release : releases_) release.wait();
  }
  BackgroundRelease(const BackgroundRelease&) = delete;
  BackgroundRelease& operator=(const BackgroundRelease&) = delete;

  // Takes `dying` (left empty) and destroys it on another thread.
  template <class T>
  void operator()(T& dying) {
    auto held = std::make_shared<T>(std::move(dying));
    dying = T{};
    releases_.push_back(std::async(std::launch::async, [held = std::move(held)]() mutable { held.reset(); }));
  }

 private:
  std::vector<std::future<void>> releases_;
};

}  // namespace fem::amg
