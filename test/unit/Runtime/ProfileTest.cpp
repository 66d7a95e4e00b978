//===- ProfileTest.cpp - The roofline of a profile and its peaks file -----===//
//
// placeOnRoofline against hand-computed times: a launch bound by memory, one
// bound by a unit, one with a unit the peaks do not know; readDevicePeaks
// of a good file and of every kind of bad one.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Profile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace uta::runtime;

namespace {

DevicePeaks h200Like() {
  DevicePeaks peaks;
  peaks.device = "GPU";
  peaks.bytesPerSecond = 4e12;
  peaks.flopsPerSecond = {{"simt", 5e13}, {"tf32", 5e14}};
  return peaks;
}

LaunchDesc::Cost costOf(int64_t bytes, int64_t simt, int64_t tf32) {
  LaunchDesc::Cost cost;
  cost.bytesRead = bytes / 2;
  cost.bytesWritten = bytes - bytes / 2;
  if (simt)
    cost.flops.emplace_back("simt", simt);
  if (tf32)
    cost.flops.emplace_back("tf32", tf32);
  return cost;
}

TEST(ProfileTest, MemoryBoundCopy) {
  // 4 GB at 4 TB/s: 1 ms at best; measured 1.25 ms: 80%.
  std::optional<RooflinePoint> point =
      placeOnRoofline(costOf(4'000'000'000, 1'000'000, 0), 1.25, h200Like());
  ASSERT_TRUE(point);
  EXPECT_EQ(point->bound, "memory");
  EXPECT_DOUBLE_EQ(point->milliseconds, 1.0);
  EXPECT_DOUBLE_EQ(point->fraction, 0.8);
}

TEST(ProfileTest, TensorBoundGemm) {
  // 1e12 tf32 operations at 5e14/s: 2 ms; its 0.4 GB would take 0.1 ms,
  // its SIMT epilogue 0.02 ms. Measured 4 ms: 50%.
  std::optional<RooflinePoint> point = placeOnRoofline(
      costOf(400'000'000, 1'000'000'000, 1'000'000'000'000), 4.0, h200Like());
  ASSERT_TRUE(point);
  EXPECT_EQ(point->bound, "tf32");
  EXPECT_DOUBLE_EQ(point->milliseconds, 2.0);
  EXPECT_DOUBLE_EQ(point->fraction, 0.5);
}

TEST(ProfileTest, NoPointWithoutAPeakOrATime) {
  LaunchDesc::Cost bf16 = costOf(1000, 0, 0);
  bf16.flops.emplace_back("bf16", 1000);
  EXPECT_FALSE(placeOnRoofline(bf16, 1.0, h200Like()));
  EXPECT_FALSE(placeOnRoofline(costOf(1000, 10, 0), 0.0, h200Like()));
}

class PeaksFileTest : public ::testing::Test {
protected:
  std::string write(const std::string &text) {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("uta-peaks-" + std::to_string(::getpid()) + "-" +
                         std::to_string(count++) + ".json"))
                           .string();
    std::ofstream(path) << text;
    paths.push_back(path);
    return path;
  }
  std::string errorOf(const std::string &text) {
    std::string path = write(text);
    Expected<DevicePeaks> peaks = readDevicePeaks(path);
    EXPECT_FALSE(peaks);
    std::string message = peaks ? "" : peaks.status().message();
    // Every message names the file.
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    return message.substr(path.size() + 2);
  }
  ~PeaksFileTest() override {
    for (const std::string &path : paths)
      std::remove(path.c_str());
  }
  std::vector<std::string> paths;
  int count = 0;
};

TEST_F(PeaksFileTest, ReadsAGoodFile) {
  Expected<DevicePeaks> peaks = readDevicePeaks(write(
      R"({"format": "uta-peaks", "version": 1, "device": "NVIDIA H200",
          "bytes_per_second": 4.2e12,
          "flops_per_second": {"tf32": 4.9e14, "simt": 5.1e13}})"));
  ASSERT_TRUE(peaks) << peaks.status().message();
  EXPECT_EQ(peaks->device, "NVIDIA H200");
  EXPECT_DOUBLE_EQ(peaks->bytesPerSecond, 4.2e12);
  ASSERT_EQ(peaks->flopsPerSecond.size(), 2u);
}

TEST_F(PeaksFileTest, RefusesBadFiles) {
  EXPECT_EQ(errorOf("{not json"), "not a JSON object");
  EXPECT_EQ(errorOf(R"({"format": "uta-profile", "version": 1})"),
            "not a peaks file (format \"uta-peaks\", version 1)");
  EXPECT_EQ(errorOf(R"({"format": 5, "version": "1"})"),
            "not a peaks file (format \"uta-peaks\", version 1)");
  EXPECT_EQ(errorOf(R"({"format": "uta-peaks", "version": 1,
                        "bytes_per_second": 1, "flops_per_second": {}})"),
            "\"device\": expected a string");
  EXPECT_EQ(errorOf(R"({"format": "uta-peaks", "version": 1, "device": "x",
                        "bytes_per_second": -1, "flops_per_second": {}})"),
            "\"bytes_per_second\": expected a positive number");
  EXPECT_EQ(errorOf(R"({"format": "uta-peaks", "version": 1, "device": "x",
                        "bytes_per_second": 1,
                        "flops_per_second": {"tf32": "fast"}})"),
            "\"flops_per_second\".tf32: expected a positive number");
  EXPECT_EQ(errorOf(R"({"format": "uta-peaks", "version": 1, "device": "x",
                        "bytes_per_second": 1})"),
            "\"flops_per_second\": expected an object");
}

} // namespace
