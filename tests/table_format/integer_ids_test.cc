// IntegerIds: dense ids in first-seen order, whether a value lies in the direct array (small,
// non-negative) or in the hashed rest, against a std::map model.
#include "table_format/encodings/integer_ids.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

namespace columnar {
namespace {

TEST(IntegerIdsTest, IdsFollowFirstSightingsAcrossDirectAndHashedValues) {
  IntegerIds ids;
  std::map<int64_t, uint32_t> model;
  std::mt19937_64 rng(7);
  const std::vector<int64_t> edges = {0,
                                      1,
                                      static_cast<int64_t>(IntegerIds::kDirectLimit) - 1,
                                      static_cast<int64_t>(IntegerIds::kDirectLimit),
                                      -1,
                                      std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max()};
  for (int i = 0; i < 20000; i++) {
    int64_t value;
    switch (rng() % 4) {
      case 0:
        value = edges[rng() % edges.size()];
        break;
      case 1:
        value = static_cast<int64_t>(rng() % 300);  // a small direct array
        break;
      case 2:
        value = static_cast<int64_t>(rng() % (2 * IntegerIds::kDirectLimit));
        break;
      default:
        value = static_cast<int64_t>(rng());
    }
    if (rng() % 3 == 0) {  // a lookup alone
      const auto it = model.find(value);
      EXPECT_EQ(ids.Find(value), it == model.end() ? IntegerIds::kNone : it->second) << value;
      continue;
    }
    bool added = false;
    const uint32_t id = ids.FindOrAdd(value, &added);
    const auto [it, inserted] = model.emplace(value, static_cast<uint32_t>(model.size()));
    EXPECT_EQ(added, inserted) << value;
    EXPECT_EQ(id, it->second) << value;
    EXPECT_EQ(ids.Find(value), it->second) << value;
    ASSERT_EQ(ids.size(), model.size());
  }
}

TEST(IntegerIdsTest, StopsAddingAtTheLimit) {
  IntegerIds ids;
  bool added = false;
  for (size_t v = 0; v < IntegerIds::kMaxIds; v++) {
    ASSERT_EQ(ids.FindOrAdd(static_cast<int64_t>(v) * 3, &added), v);
    ASSERT_TRUE(added);
  }
  EXPECT_EQ(ids.FindOrAdd(1, &added), IntegerIds::kNone);  // 1 is not a multiple of 3
  EXPECT_FALSE(added);
  EXPECT_EQ(ids.FindOrAdd(3, &added), 1u);  // a value held still has its id
  EXPECT_FALSE(added);
  EXPECT_EQ(ids.Find(1), IntegerIds::kNone);
  EXPECT_EQ(ids.size(), IntegerIds::kMaxIds);
}

}  // namespace
}  // namespace columnar
