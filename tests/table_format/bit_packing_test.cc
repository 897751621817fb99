#include "table_format/bit_packing.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/bit_packing_kernels.h"

namespace columnar {
namespace {

uint64_t Mask(int width) { return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

std::vector<uint64_t> RandomValues(size_t n, int width, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng() & Mask(width);
  if (n > 0) v[0] = Mask(width);  // the widest value
  return v;
}

// Reference: value i is bits [i*w, (i+1)*w) LSB-first.
std::string ReferencePack(const std::vector<uint64_t>& v, int width) {
  std::string out(PackedSize(v.size(), width), '\0');
  for (size_t i = 0; i < v.size(); i++) {
    for (int b = 0; b < width; b++) {
      if ((v[i] >> b) & 1) {
        const size_t bit = i * width + b;
        out[bit / 8] = static_cast<char>(out[bit / 8] | (1 << (bit % 8)));
      }
    }
  }
  return out;
}

const size_t kLengths[] = {0,  1,   2,   7,   8,   9,    31,   32,   33,   63,  64,
                           65, 100, 127, 128, 129, 1000, 1023, 1024, 1025, 4099};

TEST(BitPackingTest, BitWidth) {
  EXPECT_EQ(BitWidth(0), 0);
  EXPECT_EQ(BitWidth(1), 1);
  EXPECT_EQ(BitWidth(255), 8);
  EXPECT_EQ(BitWidth(256), 9);
  EXPECT_EQ(BitWidth(~uint64_t{0}), 64);
}

TEST(BitPackingTest, Pack64MatchesReferenceAndRoundTrips) {
  for (int width = 0; width <= 64; width++) {
    for (size_t n : kLengths) {
      SCOPED_TRACE("width " + std::to_string(width) + " n " + std::to_string(n));
      const auto values = RandomValues(n, width, width * 7919 + n);
      // Packing ignores bits above the width.
      std::vector<uint64_t> dirty = values;
      for (auto& x : dirty) x |= ~Mask(width);
      std::string packed(PackedSize(n, width), '\0');
      PackBits(dirty.data(), n, width, packed.data());
      ASSERT_EQ(packed, ReferencePack(values, width));
      // Unpack from an exactly sized heap copy so ASan catches any over-read.
      std::vector<char> exact(packed.begin(), packed.end());
      std::vector<uint64_t> got(n + 1, 0xABAB);
      UnpackBits(exact.data(), n, width, got.data());
      got.pop_back();
      ASSERT_EQ(got, values);
    }
  }
}

TEST(BitPackingTest, Pack32MatchesReferenceAndRoundTrips) {
  for (int width = 0; width <= 32; width++) {
    for (size_t n : kLengths) {
      SCOPED_TRACE("width " + std::to_string(width) + " n " + std::to_string(n));
      const auto wide = RandomValues(n, width, width * 104729 + n);
      std::vector<uint32_t> values(wide.begin(), wide.end());
      std::string packed(PackedSize(n, width), '\0');
      PackBits32(values.data(), n, width, packed.data());
      ASSERT_EQ(packed, ReferencePack(wide, width));
      std::vector<char> exact(packed.begin(), packed.end());
      std::vector<uint32_t> got(n + 1, 0xABAB);
      UnpackBits32(exact.data(), n, width, got.data());
      EXPECT_EQ(got[n], 0xABABu) << "wrote past n";
      got.pop_back();
      ASSERT_EQ(got, values);
    }
  }
}

// Every kernel this CPU can run agrees with the scalar reference, at every width, on inputs
// whose packed size leaves the kernel's wide loads exactly at the buffer's end.
TEST(BitPackingTest, SimdKernelsMatchScalar) {
  const auto available = xsimd::available_architectures();
  for (int width = 1; width <= 32; width++) {
    for (size_t n : {64, 65, 80, 96, 127, 128, 129, 200, 256, 1000, 1024, 1025, 4096}) {
      SCOPED_TRACE("width " + std::to_string(width) + " n " + std::to_string(n));
      const auto wide = RandomValues(n, width, width * 31 + n);
      std::vector<uint32_t> values(wide.begin(), wide.end());
      std::vector<char> packed(PackedSize(n, width));
      PackBits32(values.data(), n, width, packed.data());
      std::vector<uint32_t> scalar(n);
      UnpackBits32Scalar(packed.data(), n, width, scalar.data());
      ASSERT_EQ(scalar, values);
      auto check = [&](auto arch) {
        std::vector<uint32_t> got(n, 0);
        const size_t done = Unpack32Kernel{}(arch, reinterpret_cast<const uint8_t*>(packed.data()),
                                             packed.size(), n, width, got.data());
        ASSERT_LE(done, n);
        ASSERT_EQ(done % 8, 0u);
        for (size_t i = 0; i < done; i++) ASSERT_EQ(got[i], values[i]) << "value " << i;
      };
      if (available.avx2) check(xsimd::avx2{});
      if (available.avx512bw) check(xsimd::avx512bw{});
      check(xsimd::sse2{});
    }
  }
}

}  // namespace
}  // namespace columnar
