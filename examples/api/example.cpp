//===- example.cpp - Build, compile, run and check two graphs -------------===//
//
// The UTA C++ API from an installed package: builds the Flash Clifford SGP
// layer in Cl(3,0) and linear_bias_gelu with uta::Graph (the formulas of
// examples/sgp_cl3.mlir and examples/linear_bias_gelu.mlir), compiles them
// for the best device here (a CUDA GPU, else Vulkan), runs them on seeded
// inputs, and checks every output against the float64 reference. With a
// folder argument it also saves each compiled module there, with its inputs
// and the reference's outputs, for uta-api-runtime.
//
// Exit status: 0 every output matches; 1 an error or a mismatch; 3 no
// device to run on here.
//
//===----------------------------------------------------------------------===//

#include <uta/Compiler.h>
#include <uta/Graph.h>
#include <uta/Runtime.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/// grade_rms_norm(weighted_product(scalar_gate(x), scalar_gate(y), w)).
uta::Graph buildSgp(int64_t batch, int64_t features) {
  uta::Algebra cl3(3, 0);
  uta::Graph g("sgp_cl3");
  uta::Tensor x = g.input({cl3.numBlades(), batch, features});
  uta::Tensor y = g.input({cl3.numBlades(), batch, features});
  uta::Tensor w = g.input({features, cl3.numPaths()});
  uta::Tensor product =
      g.weightedProduct(cl3, g.scalarGate(cl3, x), g.scalarGate(cl3, y), w);
  g.output(g.gradeRmsNorm(cl3, product));
  return g;
}

/// gelu(x W^T + b).
uta::Graph buildLinearBiasGelu(int64_t m, int64_t n, int64_t k) {
  uta::Graph g("linear_bias_gelu");
  uta::Tensor x = g.input({m, k});
  uta::Tensor w = g.input({n, k});
  uta::Tensor b = g.input({n});
  g.output(g.gelu(g.add(g.matmul(x, w, /*transposeB=*/true), b)));
  return g;
}

/// Writes `values` as raw float32 to `path`.
bool writeFloats(const std::string &path, const std::vector<float> &values) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return false;
  bool ok = std::fwrite(values.data(), sizeof(float), values.size(), file) ==
            values.size();
  return std::fclose(file) == 0 && ok;
}

/// Runs `graph` on `device` and on the reference with the same seeded
/// inputs and compares the outputs; true when every output passes.
bool runAndCheck(const uta::Graph &graph, const uta::Device &device,
                 const uta::Device &reference, const std::string &saveDir) {
  if (!graph.ok()) {
    std::fprintf(stderr, "%s\n", graph.error().c_str());
    return false;
  }
  uta::Expected<uta::CompiledGraph> compiled =
      uta::compile(graph, uta::CompileOptions::forDevice(device));
  if (!compiled) {
    std::fprintf(stderr, "%s\n", compiled.status().message().c_str());
    return false;
  }
  uta::Expected<uta::Executable> exe = compiled->load(device);
  uta::Expected<uta::Executable> oracle = compiled->load(reference);
  if (!exe || !oracle) {
    std::fprintf(stderr, "%s\n",
                 (exe ? oracle.status() : exe.status()).message().c_str());
    return false;
  }

  // Seeded standard-normal inputs (never zeros); outputs start as NaN so an
  // element nobody writes fails the check.
  std::vector<std::vector<float>> inputs, outputs, expected;
  std::vector<uta::HostTensorView> inputViews, outputViews, expectedViews;
  for (size_t i = 0; i < compiled->inputs().size(); ++i)
    inputs.emplace_back(compiled->inputs()[i].numElements());
  for (size_t i = 0; i < inputs.size(); ++i) {
    uta::fillNormal(inputs[i], /*seed=*/1, /*stream=*/i);
    inputViews.emplace_back(inputs[i], compiled->inputs()[i].shape);
  }
  for (const uta::TensorType &type : compiled->outputs()) {
    outputs.emplace_back(type.numElements(), std::nanf(""));
    expected.emplace_back(type.numElements(), std::nanf(""));
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    outputViews.emplace_back(outputs[o], compiled->outputs()[o].shape);
    expectedViews.emplace_back(expected[o], compiled->outputs()[o].shape);
  }
  if (uta::Status status = exe->run(inputViews, outputViews); !status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return false;
  }
  if (uta::Status status = oracle->run(inputViews, expectedViews); !status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return false;
  }

  bool passed = true;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const uta::TensorType &type = compiled->outputs()[o];
    uta::Comparison comparison = uta::compare(
        graph.name() + ".result" + std::to_string(o), outputs[o], expected[o],
        type.shape,
        uta::defaultTolerance(type.dtype, uta::hasReductions(*compiled)));
    std::printf("%s\n", comparison.report.c_str());
    passed = passed && comparison.passed;
  }

  if (!saveDir.empty()) {
    std::string base = saveDir + "/" + graph.name();
    if (uta::Status status = compiled->save(base); !status) {
      std::fprintf(stderr, "%s\n", status.message().c_str());
      return false;
    }
    for (size_t i = 0; i < inputs.size(); ++i)
      passed =
          writeFloats(base + ".input" + std::to_string(i), inputs[i]) && passed;
    for (size_t o = 0; o < expected.size(); ++o)
      passed =
          writeFloats(base + ".expected" + std::to_string(o), expected[o]) &&
          passed;
  }
  return passed;
}

} // namespace

int main(int argc, char **argv) {
  std::string saveDir = argc > 1 ? argv[1] : "";
  uta::Expected<uta::Device> device = uta::Device::open("best");
  if (!device) {
    std::fprintf(stderr, "%s\n", device.status().message().c_str());
    return device.status().code() == uta::ErrorCode::Unavailable ? 3 : 1;
  }
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  if (!reference) {
    std::fprintf(stderr, "%s\n", reference.status().message().c_str());
    return 1;
  }
  std::printf("device: %s (%s)\n", device->description().c_str(),
              device->backend().c_str());

  // Shapes with tails: no size is a multiple of a tile or a vector width.
  bool passed = runAndCheck(buildSgp(37, 29), *device, *reference, saveDir);
  passed = runAndCheck(buildLinearBiasGelu(67, 71, 45), *device, *reference,
                       saveDir) &&
           passed;
  std::printf("%s\n", passed ? "all outputs match the reference"
                             : "MISMATCH against the reference");
  return passed ? 0 : 1;
}
