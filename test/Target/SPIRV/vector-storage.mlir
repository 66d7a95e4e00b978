// RUN: uta-opt %s -split-input-file --pass-pipeline='builtin.module(spirv.module(uta-spirv-vector-storage))' | FileCheck %s

// A buffer of 16 floats read as an aligned vec4 at element i (a pointer
// bitcast, which Vulkan forbids) and as a scalar at element j becomes 4
// vec4: the vector is vec4 i >> 2, the scalar component j & 3 of vec4 j >> 2.
// CHECK-LABEL: spirv.module
//       CHECK:   spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<4 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
//       CHECK:   spirv.func @retype(%[[I:.*]]: i32, %[[J:.*]]: i32)
//       CHECK:     %[[ZERO:.*]] = spirv.Constant 0 : i32
//       CHECK:     %[[ADDR:.*]] = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.array<4 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
//       CHECK:     %[[TWO:.*]] = spirv.Constant 2 : i32
//       CHECK:     %[[Q:.*]] = spirv.ShiftRightLogical %[[I]], %[[TWO]] : i32, i32
//       CHECK:     %[[VP:.*]] = spirv.AccessChain %[[ADDR]][%[[ZERO]], %[[Q]]] : {{.*}} -> !spirv.ptr<vector<4xf32>, StorageBuffer>
//  CHECK-NEXT:     spirv.Load "StorageBuffer" %[[VP]] ["Aligned", 16] : vector<4xf32>
//       CHECK:     %[[QJ:.*]] = spirv.ShiftRightLogical %[[J]], %{{.*}} : i32, i32
//       CHECK:     %[[THREE:.*]] = spirv.Constant 3 : i32
//       CHECK:     %[[RJ:.*]] = spirv.BitwiseAnd %[[J]], %[[THREE]] : i32
//       CHECK:     %[[SP:.*]] = spirv.AccessChain %[[ADDR]][%[[ZERO]], %[[QJ]], %[[RJ]]] : {{.*}} -> !spirv.ptr<f32, StorageBuffer>
//  CHECK-NEXT:     spirv.Load "StorageBuffer" %[[SP]] : f32
//   CHECK-NOT:     spirv.Bitcast
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @retype(%i: i32, %j: i32) -> f32 "None" {
    %zero = spirv.Constant 0 : i32
    %addr = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %addr[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %vp = spirv.Bitcast %p : !spirv.ptr<f32, StorageBuffer> to !spirv.ptr<vector<4xf32>, StorageBuffer>
    %v = spirv.Load "StorageBuffer" %vp ["Aligned", 16] : vector<4xf32>
    %q = spirv.AccessChain %addr[%zero, %j] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %s = spirv.Load "StorageBuffer" %q : f32
    %e = spirv.CompositeExtract %v[1 : i32] : vector<4xf32>
    %r = spirv.FAdd %e, %s : f32
    spirv.ReturnValue %r : f32
  }
}

// -----

// 10 floats (not a multiple of 4): the array stays; the vec4 load becomes 4
// scalar loads at i, i + 1, i + 2, i + 3 and the store 4 scalar stores.
// CHECK-LABEL: spirv.module
//       CHECK:   spirv.GlobalVariable @odd bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<10 x f32, stride=4> [0])>, StorageBuffer>
//       CHECK:   spirv.func @scalarize(%[[I:.*]]: i32)
//       CHECK:     %[[P0:.*]] = spirv.AccessChain %{{.*}}[%{{.*}}, %[[I]]]
//       CHECK:     %[[ONE:.*]] = spirv.Constant 1 : i32
//       CHECK:     %[[I1:.*]] = spirv.IAdd %[[I]], %[[ONE]] : i32
//       CHECK:     %[[P1:.*]] = spirv.AccessChain %{{.*}}[%{{.*}}, %[[I1]]]
//       CHECK:     %[[P2:.*]] = spirv.AccessChain
//       CHECK:     %[[P3:.*]] = spirv.AccessChain
//       CHECK:     %[[L0:.*]] = spirv.Load "StorageBuffer" %[[P0]] : f32
//       CHECK:     %[[L1:.*]] = spirv.Load "StorageBuffer" %[[P1]] : f32
//       CHECK:     %[[L2:.*]] = spirv.Load "StorageBuffer" %[[P2]] : f32
//       CHECK:     %[[L3:.*]] = spirv.Load "StorageBuffer" %[[P3]] : f32
//       CHECK:     %[[V:.*]] = spirv.CompositeConstruct %[[L0]], %[[L1]], %[[L2]], %[[L3]] : (f32, f32, f32, f32) -> vector<4xf32>
//       CHECK:     %[[Q0:.*]] = spirv.AccessChain %{{.*}}[%{{.*}}, %[[I]]]
//       CHECK:     %[[Q1:.*]] = spirv.AccessChain
//       CHECK:     %[[Q2:.*]] = spirv.AccessChain
//       CHECK:     %[[Q3:.*]] = spirv.AccessChain
//  CHECK-NEXT:     %[[E0:.*]] = spirv.CompositeExtract %[[V]][0 : i32]
//  CHECK-NEXT:     spirv.Store "StorageBuffer" %[[Q0]], %[[E0]] : f32
//  CHECK-NEXT:     %[[E1:.*]] = spirv.CompositeExtract %[[V]][1 : i32]
//  CHECK-NEXT:     spirv.Store "StorageBuffer" %[[Q1]], %[[E1]] : f32
//  CHECK-NEXT:     %[[E2:.*]] = spirv.CompositeExtract %[[V]][2 : i32]
//  CHECK-NEXT:     spirv.Store "StorageBuffer" %[[Q2]], %[[E2]] : f32
//  CHECK-NEXT:     %[[E3:.*]] = spirv.CompositeExtract %[[V]][3 : i32]
//  CHECK-NEXT:     spirv.Store "StorageBuffer" %[[Q3]], %[[E3]] : f32
//   CHECK-NOT:     spirv.Bitcast
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @odd bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<10 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @scalarize(%i: i32) "None" {
    %zero = spirv.Constant 0 : i32
    %addr = spirv.mlir.addressof @odd : !spirv.ptr<!spirv.struct<(!spirv.array<10 x f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %addr[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<10 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %vp = spirv.Bitcast %p : !spirv.ptr<f32, StorageBuffer> to !spirv.ptr<vector<4xf32>, StorageBuffer>
    %v = spirv.Load "StorageBuffer" %vp ["Aligned", 16] : vector<4xf32>
    spirv.Store "StorageBuffer" %vp, %v ["Aligned", 16] : vector<4xf32>
    spirv.Return
  }
}

// -----

// 16 floats, but the vector load does not promise 16-byte alignment, so i
// may not be a multiple of 4: scalar loads, and the array stays.
// CHECK-LABEL: spirv.module
//       CHECK:   spirv.GlobalVariable @unaligned bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
//       CHECK:   spirv.func @not_aligned
//   CHECK-NOT:     spirv.Bitcast
//   CHECK-NOT:     spirv.ShiftRightLogical
//       CHECK:     spirv.CompositeConstruct
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @unaligned bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @not_aligned(%i: i32) -> vector<4xf32> "None" {
    %zero = spirv.Constant 0 : i32
    %addr = spirv.mlir.addressof @unaligned : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %addr[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %vp = spirv.Bitcast %p : !spirv.ptr<f32, StorageBuffer> to !spirv.ptr<vector<4xf32>, StorageBuffer>
    %v = spirv.Load "StorageBuffer" %vp : vector<4xf32>
    spirv.ReturnValue %v : vector<4xf32>
  }
}
