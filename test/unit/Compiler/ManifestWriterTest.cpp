//===- ManifestWriterTest.cpp - Launches in the manifest ------------------===//
//
// The manifest writer on host functions written by hand: a launch with a
// thread block cluster keeps its shape in the manifest (the runtime then
// launches it through cuLaunchKernelEx) instead of losing it.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/ManifestWriter.h"
#include "lib/Compiler/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace mlir;

namespace {

/// A host function launching @kernels::@copy on 4 blocks of 128 threads,
/// in clusters of `cluster` blocks.
std::string hostFunction(const std::string &cluster) {
  return R"mlir(
module attributes {gpu.container_module} {
  func.func @main(%x: memref<512xf32>) -> memref<512xf32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %y = memref.alloc() : memref<512xf32>
    gpu.launch_func @kernels::@copy clusters in ()mlir" +
         cluster + R"mlir(, %c1, %c1) blocks in (%c4, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<512xf32>, %y : memref<512xf32>)
    return %y : memref<512xf32>
  }
  gpu.module @kernels {
    gpu.func @copy(%in: memref<512xf32>, %out: memref<512xf32>) kernel {
      gpu.return
    }
  }
}
)mlir";
}

/// writeManifest's JSON for the host function of `cluster`, or its
/// diagnostics.
std::string manifestOf(const std::string &cluster, std::string &errors) {
  DialectRegistry registry;
  uta::registerUTADialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors += diagnostic.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(hostFunction(cluster), &context);
  if (!module)
    return "";
  auto host = module->lookupSymbol<func::FuncOp>("main");
  uta::ManifestTarget target;
  target.target = "ptx";
  target.sm = "90";
  target.moduleFileName = "main.ptx";
  FailureOr<std::string> manifest = uta::writeManifest(host, target);
  return succeeded(manifest) ? *manifest : "";
}

TEST(ManifestWriterTest, ClusterShapeIsKept) {
  std::string errors;
  std::string text = manifestOf("%c2", errors);
  ASSERT_FALSE(text.empty()) << errors;
  nlohmann::json manifest = nlohmann::json::parse(text);
  ASSERT_EQ(manifest["launches"].size(), 1u);
  EXPECT_EQ(manifest["launches"][0]["cluster"], nlohmann::json({2, 1, 1}));
  EXPECT_EQ(manifest["launches"][0]["grid"], nlohmann::json({4, 1, 1}));
}

} // namespace
