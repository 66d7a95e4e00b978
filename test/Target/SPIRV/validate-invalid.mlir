// The in-process SPIRV-Tools validator that utac runs on every SPIR-V module
// rejects, with a located one-line error, a module that MLIR accepts but
// Vulkan does not: a GLCompute entry point without a workgroup size.
// RUN: not uta-opt %s --uta-test-spirv-validate 2>&1 | FileCheck %s

// A module with its workgroup size validates: the pass is silent.
// RUN: uta-opt %S/Inputs/valid-module.mlir --uta-test-spirv-validate \
// RUN:   | FileCheck %s --check-prefix=VALID
// VALID: spirv.EntryPoint "GLCompute" @with_size

// CHECK: validate-invalid.mlir:[[@LINE+2]]:1: error: the SPIR-V module fails validation for Vulkan 1.1: {{.*}}require either the LocalSize{{.*}} | OpEntryPoint GLCompute %no_size "no_size" (at word {{[0-9]+}})
// CHECK-NEXT: spirv.module
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @no_size() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @no_size
}
