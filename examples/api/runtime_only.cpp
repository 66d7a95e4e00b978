//===- runtime_only.cpp - Run saved modules with the runtime alone --------===//
//
// Links UTA::runtime only (no compiler, no MLIR): loads the modules that
// uta-api-example saved in a folder, runs each on the best device with the
// inputs saved beside it, and compares with the reference's outputs saved
// there too. Exit status: 0 every output matches; 1 otherwise; 3 no device.
//
//===----------------------------------------------------------------------===//

#include <uta/Runtime.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

bool readFloats(const std::string &path, std::vector<float> &values) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return false;
  size_t read = std::fread(values.data(), sizeof(float), values.size(), file);
  bool atEnd = std::fgetc(file) == EOF;
  std::fclose(file);
  return read == values.size() && atEnd;
}

bool runSaved(const uta::Device &device, const std::string &base) {
  uta::Expected<uta::Executable> exe =
      uta::Executable::load(device, base + ".json");
  if (!exe) {
    std::fprintf(stderr, "%s\n", exe.status().message().c_str());
    return false;
  }
  std::vector<std::vector<float>> inputs, outputs, expected;
  std::vector<uta::HostTensorView> inputViews, outputViews;
  for (size_t i = 0; i < exe->inputs().size(); ++i) {
    inputs.emplace_back(exe->inputs()[i].numElements());
    if (!readFloats(base + ".input" + std::to_string(i), inputs.back())) {
      std::fprintf(stderr, "%s.input%zu: cannot read\n", base.c_str(), i);
      return false;
    }
  }
  for (size_t o = 0; o < exe->outputs().size(); ++o) {
    outputs.emplace_back(exe->outputs()[o].numElements(), std::nanf(""));
    expected.emplace_back(exe->outputs()[o].numElements());
    if (!readFloats(base + ".expected" + std::to_string(o), expected.back())) {
      std::fprintf(stderr, "%s.expected%zu: cannot read\n", base.c_str(), o);
      return false;
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    inputViews.emplace_back(inputs[i], exe->inputs()[i].shape);
  for (size_t o = 0; o < outputs.size(); ++o)
    outputViews.emplace_back(outputs[o], exe->outputs()[o].shape);
  if (uta::Status status = exe->run(inputViews, outputViews); !status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return false;
  }
  bool passed = true;
  for (size_t o = 0; o < outputs.size(); ++o) {
    // Both graphs reduce (a matmul; clifford products): the looser bound.
    uta::Comparison comparison = uta::compare(
        exe->name() + ".result" + std::to_string(o), outputs[o], expected[o],
        exe->outputs()[o].shape,
        uta::defaultTolerance(exe->outputs()[o].dtype, /*reduces=*/true));
    std::printf("runtime only: %s\n", comparison.report.c_str());
    passed = passed && comparison.passed;
  }
  return passed;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: uta-api-runtime DIR (as saved by "
                         "uta-api-example DIR)\n");
    return 1;
  }
  uta::Expected<uta::Device> device = uta::Device::open("best");
  if (!device) {
    std::fprintf(stderr, "%s\n", device.status().message().c_str());
    return device.status().code() == uta::ErrorCode::Unavailable ? 3 : 1;
  }
  std::string dir = argv[1];
  bool passed = runSaved(*device, dir + "/sgp_cl3");
  passed = runSaved(*device, dir + "/linear_bias_gelu") && passed;
  return passed ? 0 : 1;
}
