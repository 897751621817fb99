// CompactionInputs (plugin/compaction_inputs.h): the per-thread registry of a compaction's input
// groups. Registration is per thread, a group is found by its first row's internal key only
// while its input holds it and is not known to be too small, and unregistered inputs are
// forgotten.
#include "plugin/compaction_inputs.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "table_format/row_layout.h"

namespace columnar {
namespace {

// A decoded group of the given internal keys (values empty).
class KeysOnlyGroup : public DecodedRowGroup {
 public:
  explicit KeysOnlyGroup(const std::vector<std::string>& keys) {
    key_offsets_.push_back(0);
    for (const std::string& key : keys) {
      keys_.append(key);
      key_offsets_.push_back(static_cast<uint32_t>(keys_.size()));
    }
  }
  Slice value(size_t /*row*/) const override { return Slice(); }
};

TEST(CompactionInputsTest, FindsTheGroupWhoseFirstRowIsTheKeyWhileItIsHeld) {
  CompactionInputs& inputs = CompactionInputs::OfThisThread();
  ASSERT_TRUE(inputs.empty());
  const KeysOnlyGroup first({"a-key-1", "a-key-2"});
  const KeysOnlyGroup second({"b-key-1"});
  CompactionInputGroup one, two;
  one.group = 0;
  one.rows = &first;
  two.group = 4;
  two.rows = &second;
  inputs.Register(&one);
  inputs.Register(&two);
  EXPECT_TRUE(inputs.Registered(&one));
  EXPECT_EQ(inputs.GroupStartingWith("a-key-1", 0), &one);
  EXPECT_EQ(inputs.GroupStartingWith("b-key-1", 0), &two);
  EXPECT_EQ(inputs.GroupStartingWith("a-key-2", 0), nullptr);  // not a first row
  EXPECT_EQ(inputs.GroupStartingWith("a-key", 0), nullptr);

  // Groups known to be smaller than asked for are passed over; unknown sizes are not.
  one.bytes = 100;
  EXPECT_EQ(inputs.GroupStartingWith("a-key-1", 100), &one);
  EXPECT_EQ(inputs.GroupStartingWith("a-key-1", 101), nullptr);
  EXPECT_EQ(inputs.GroupStartingWith("b-key-1", 1 << 20), &two);  // two.bytes unknown

  one.rows = nullptr;  // the iterator let the group go
  EXPECT_EQ(inputs.GroupStartingWith("a-key-1", 0), nullptr);

  // Another thread has a registry of its own.
  std::thread other([] {
    EXPECT_TRUE(CompactionInputs::OfThisThread().empty());
    EXPECT_EQ(CompactionInputs::OfThisThread().GroupStartingWith("b-key-1", 0), nullptr);
  });
  other.join();

  inputs.Unregister(&two);
  EXPECT_FALSE(inputs.Registered(&two));
  EXPECT_EQ(inputs.GroupStartingWith("b-key-1", 0), nullptr);
  inputs.Unregister(&one);
  EXPECT_TRUE(inputs.empty());
}

}  // namespace
}  // namespace columnar
