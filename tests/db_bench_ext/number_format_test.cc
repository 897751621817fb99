#include "db_bench_ext/number_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace columnar {
namespace bench {
namespace {

TEST(NumberFormatTest, Counts) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(120960000), "120,960,000");
}

TEST(NumberFormatTest, FiguresKeepThreeSignificantDigits) {
  EXPECT_EQ(FormatFigure(0), "0");
  EXPECT_EQ(FormatFigure(0.68), "0.68");
  EXPECT_EQ(FormatFigure(0.0042), "0.0042");
  EXPECT_EQ(FormatFigure(5.123), "5.12");
  EXPECT_EQ(FormatFigure(15.5), "15.5");
  EXPECT_EQ(FormatFigure(15), "15");
  EXPECT_EQ(FormatFigure(235.4), "235");
  EXPECT_EQ(FormatFigure(999.7), "1,000");
  EXPECT_EQ(FormatFigure(39871.2), "39,871");
  EXPECT_EQ(FormatFigure(-2.5), "-2.5");
  EXPECT_EQ(FormatFigure(std::nan("")), "n/a");
}

TEST(NumberFormatTest, SiBytesDurationsRatios) {
  EXPECT_EQ(FormatSi(42), "42");
  EXPECT_EQ(FormatSi(512300), "512k");
  EXPECT_EQ(FormatSi(1.21e9), "1.21G");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(8.29e9), "8.29 GB");
  EXPECT_EQ(FormatBytes(15.03e9), "15 GB");
  EXPECT_EQ(FormatDuration(0), "0:00");
  EXPECT_EQ(FormatDuration(161), "2:41");
  EXPECT_EQ(FormatDuration(3723), "1:02:03");
  EXPECT_EQ(FormatDuration(-1), "--:--");
  EXPECT_EQ(FormatRatio(0.4), "0.40x");
  EXPECT_EQ(FormatRatio(7.13), "7.13x");
}

TEST(NumberFormatTest, JsonNumbersRoundTrip) {
  EXPECT_EQ(FormatJsonNumber(0.1), "0.1");
  EXPECT_EQ(FormatJsonNumber(11.3), "11.3");
  EXPECT_EQ(FormatJsonNumber(1e21), "1e+21");
  EXPECT_EQ(FormatJsonNumber(500000), "500000");
  EXPECT_EQ(FormatJsonNumber(-0.00125), "-0.00125");
  EXPECT_EQ(FormatJsonNumber(1.5e-7), "1.5e-07");
  EXPECT_EQ(FormatJsonNumber(std::numeric_limits<double>::infinity()), "null");
  const double third = 1.0 / 3;
  EXPECT_EQ(std::stod(FormatJsonNumber(third)), third);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
