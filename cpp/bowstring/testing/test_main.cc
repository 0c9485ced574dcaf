// Entry point of every C++ test binary: all tests run with a checked allocator as the process
// default, and a test fails if any allocation made through it is still live when it ends.

#include <gtest/gtest.h>

#include <string>

#include "bowstring/memory/allocator.h"

namespace {

class LeakCheckListener final : public testing::EmptyTestEventListener {
 public:
  explicit LeakCheckListener(bowstring::CheckedAllocator* allocator) : allocator_(allocator) {}

  void OnTestEnd(const testing::TestInfo& /*info*/) override {
    const std::vector<std::string> leaks = allocator_->leaks();
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
