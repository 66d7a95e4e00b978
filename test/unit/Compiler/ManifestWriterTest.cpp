//===- ManifestWriterTest.cpp - Launches in the manifest ------------------===//
//
// The manifest writer on host functions written by hand: a launch with a
// thread block cluster keeps its shape in the manifest (the runtime then
// launches it through cuLaunchKernelEx) instead of losing it, a kernel
// launched on other buffers than at its first launch is listed once with
// each launch's arguments, and a host function whose buffers the runtime
// could not allocate gets a located error, not a manifest.
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
/// in clusters of `cluster` blocks, taking `arguments` before its buffer.
std::string hostFunction(const std::string &cluster,
                         const std::string &arguments = "") {
  return R"mlir(
module attributes {gpu.container_module} {
  func.func @main()mlir" +
         arguments + R"mlir(%x: memref<512xf32>) -> memref<512xf32> {
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

/// writeManifest's JSON for the host function `source`, or "" with its
/// diagnostics in `errors`.
std::string manifestOf(const std::string &source, std::string &errors) {
  DialectRegistry registry;
  uta::registerUTADialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors += diagnostic.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
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
  std::string text = manifestOf(hostFunction("%c2"), errors);
  ASSERT_FALSE(text.empty()) << errors;
  nlohmann::json manifest = nlohmann::json::parse(text);
  ASSERT_EQ(manifest["launches"].size(), 1u);
  EXPECT_EQ(manifest["launches"][0]["cluster"], nlohmann::json({2, 1, 1}));
  EXPECT_EQ(manifest["launches"][0]["grid"], nlohmann::json({4, 1, 1}));
}

TEST(ManifestWriterTest, RefusesArgumentsThatAreNotBuffers) {
  for (const char *argument :
       {"%n: i32, ", "%d: memref<?xf32>, ", "%i: memref<4xi64>, "}) {
    std::string errors;
    EXPECT_EQ(manifestOf(hostFunction("%c2", argument), errors), "")
        << argument;
    EXPECT_NE(errors.find("argument 0 has type"), std::string::npos)
        << argument << ": " << errors;
    EXPECT_NE(errors.find("memrefs of static shape of f32, f16 or bf16"),
              std::string::npos)
        << argument << ": " << errors;
  }
}

TEST(ManifestWriterTest, RefusesIntermediatesOfOtherTypes) {
  std::string source = hostFunction("%c2");
  std::string alloc = "%y = memref.alloc() : memref<512xf32>";
  source.replace(source.find(alloc), alloc.size(),
                 "%z = memref.alloc() : memref<8xi32>\n    " + alloc);
  std::string errors;
  EXPECT_EQ(manifestOf(source, errors), "");
  EXPECT_NE(errors.find("'memref.alloc' op has type 'memref<8xi32>'"),
            std::string::npos)
      << errors;
}

TEST(ManifestWriterTest, AKernelLaunchedOnOtherBuffersTakesThemPerLaunch) {
  // @copy runs on (x, y), (y, z), then (x, y) again.
  std::string source = R"mlir(
module attributes {gpu.container_module} {
  func.func @main(%x: memref<512xf32>) -> memref<512xf32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 512 : i32
    %y = memref.alloc() : memref<512xf32>
    gpu.launch_func @kernels::@copy blocks in (%c4, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<512xf32>, %y : memref<512xf32>, %n : i32)
    %z = memref.alloc() : memref<512xf32>
    gpu.launch_func @kernels::@copy blocks in (%c4, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%y : memref<512xf32>, %z : memref<512xf32>, %n : i32)
    gpu.launch_func @kernels::@copy blocks in (%c4, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<512xf32>, %y : memref<512xf32>, %n : i32)
    return %z : memref<512xf32>
  }
  gpu.module @kernels {
    gpu.func @copy(%in: memref<512xf32>, %out: memref<512xf32>, %n: i32) kernel {
      gpu.return
    }
  }
}
)mlir";
  std::string errors;
  std::string text = manifestOf(source, errors);
  ASSERT_FALSE(text.empty()) << errors;
  nlohmann::json manifest = nlohmann::json::parse(text);
  // One kernel, with its first launch's arguments; the launch that passes
  // others lists them, which only version 2 readers know.
  EXPECT_EQ(manifest["version"], 2);
  ASSERT_EQ(manifest["kernels"].size(), 1u);
  auto args = [&](int in, int out) {
    return nlohmann::json::array({{{"kind", "buffer"}, {"buffer", in}},
                                  {{"kind", "buffer"}, {"buffer", out}},
                                  {{"kind", "i32"}, {"value", 512}}});
  };
  EXPECT_EQ(manifest["kernels"][0]["args"], args(0, 1));
  ASSERT_EQ(manifest["launches"].size(), 3u);
  EXPECT_FALSE(manifest["launches"][0].contains("args"));
  EXPECT_EQ(manifest["launches"][1]["args"], args(1, 2));
  EXPECT_FALSE(manifest["launches"][2].contains("args"));
  for (const nlohmann::json &launch : manifest["launches"])
    EXPECT_EQ(launch["kernel"], "copy");
}

TEST(ManifestWriterTest, OneLaunchPerKernelIsVersion1) {
  std::string errors;
  std::string text = manifestOf(hostFunction("%c2"), errors);
  ASSERT_FALSE(text.empty()) << errors;
  EXPECT_EQ(nlohmann::json::parse(text)["version"], 1);
}

} // namespace
