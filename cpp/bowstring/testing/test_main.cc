// Entry point of every C++ test binary: all tests run with a checked allocator as the process
// default, and a test fails if any allocation made through it is still live when it ends.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/memory/allocator.h"

namespace {

class LeakCheckListener final : public testing::EmptyTestEventListener {
 public:
  explicit LeakCheckListener(bowstring::CheckedAllocator* allocator) : allocator_(allocator) {}

  // Allocations a failed test leaked stay live; later tests report only their own.
  void OnTestStart(const testing::TestInfo& /*info*/) override {
    const std::vector<std::string> live = allocator_->leaks();
    live_at_start_ = std::set<std::string>(live.begin(), live.end());
  }

  void OnTestEnd(const testing::TestInfo& /*info*/) override {
    std::vector<std::string> leaks;
    for (std::string& leak : allocator_->leaks()) {
      if (live_at_start_.count(leak) == 0) {
        leaks.push_back(std::move(leak));
      }
    }
    if (leaks.empty()) {
      return;
    }
    std::string message =
        std::to_string(leaks.size()) + " allocation(s) outstanding at the end of the test:";
    for (const std::string& leak : leaks) {
      message += "\n  " + leak;
    }
    ADD_FAILURE() << message;
  }

 private:
  bowstring::CheckedAllocator* allocator_;
  std::set<std::string> live_at_start_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Never destroyed: objects with static storage may still return memory during exit.
  auto* checked = new bowstring::CheckedAllocator(bowstring::system_allocator());
  bowstring::set_default_allocator(checked);
  // gtest calls OnTestEnd in reverse order of registration, so this runs before the printer
  // reports the test's result.
  testing::UnitTest::GetInstance()->listeners().Append(new LeakCheckListener(checked));
  return RUN_ALL_TESTS();
}
