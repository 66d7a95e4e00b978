// Vectorized kernels in SPIR-V for Vulkan (uta-spirv-vector-storage): a
// buffer whose element count is a multiple of 4 and that a kernel accesses
// with aligned vectors is declared as an array of vec4 (the same bytes):
// vector accesses load and store a v4float at element i / 4 (i >> 2);
// scalar accesses to it reach component i % 4 through the access chain. A
// buffer of N % 4 != 0 elements keeps its float array, its vector accesses
// done as 4 scalar ones (a vec4 view would reach past its end). The module
// passes spirv-val (Vulkan 1.1), as the pipeline also checks in-process.
// RUN: utac %s --entry=rows --compile-to=spirv | FileCheck %s --check-prefix=ROWS
// RUN: utac %s --entry=mixed --compile-to=spirv | FileCheck %s --check-prefix=MIXED
// RUN: utac %s --entry=tail --compile-to=spirv | FileCheck %s --check-prefix=TAIL
// RUN: utac %s --entry=sgp --compile-to=spirv | FileCheck %s --check-prefix=SGP
// RUN: utac %s --entry=rows --compile-to=spirv --uta-vectorize=off | FileCheck %s --check-prefix=NOVEC
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --entry=rows --target=spirv -o %t/rows.spv
// RUN: spirv-val --target-env vulkan1.1 %t/rows.spv
// RUN: utac %s --entry=mixed --target=spirv -o %t/mixed.spv
// RUN: spirv-val --target-env vulkan1.1 %t/mixed.spv
// RUN: utac %s --entry=tail --target=spirv -o %t/tail.spv
// RUN: spirv-val --target-env vulkan1.1 %t/tail.spv
// RUN: utac %s --entry=sgp --target=spirv -o %t/sgp.spv
// RUN: spirv-val --target-env vulkan1.1 %t/sgp.spv

// x [37, 1024] is 9472 vec4, r [1024] 256; each thread loads one vec4 of
// each at element 4t / 4 and stores one.
// ROWS-DAG: %[[V4:[a-z0-9_]+]] = OpTypeVector %float 4
// ROWS-DAG: %{{.*}} = OpTypeArray %[[V4]] %uint_9472
// ROWS-DAG: %{{.*}} = OpTypeArray %[[V4]] %uint_256
// ROWS-NOT: OpTypeArray %float
// ROWS: OpFunction
// ROWS: %[[I:[0-9]+]] = OpShiftRightLogical %uint %{{[0-9]+}} %uint_2
// ROWS: %[[PX:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_v4float %rows_k0_mul_arg_0 %uint_0 %[[I]]
// ROWS: %[[X:[0-9]+]] = OpLoad %[[V4]] %[[PX]] Aligned 16
// ROWS: %[[PR:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_v4float %rows_k0_mul_arg_1 %uint_0
// ROWS: OpLoad %[[V4]] %[[PR]] Aligned 16
// ROWS: %[[V:[0-9]+]] = OpCompositeConstruct %[[V4]]
// ROWS: %[[PO:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_v4float %rows_k0_mul_arg_2 %uint_0 %{{[0-9]+}}
// ROWS: OpStore %[[PO]] %[[V]] Aligned 16
// ROWS: OpFunctionEnd
// NOVEC-NOT: OpTypeVector %float 4
// NOVEC: OpTypeArray %float %uint_37888
// NOVEC-NOT: OpTypeVector %float 4
func.func @rows(%x: tensor<37x1024xf32>, %r: tensor<1024xf32>) -> tensor<37x1024xf32> {
  %0 = uta.mul %x, %r : (tensor<37x1024xf32>, tensor<1024xf32>) -> tensor<37x1024xf32>
  return %0 : tensor<37x1024xf32>
}

// x + transpose(x): x is read as vectors (its rows) and as scalars (down its
// columns), both through the one vec4 array: a scalar element i is
// component i & 3 of vec4 i >> 2.
// MIXED-DAG: %[[V4:[a-z0-9_]+]] = OpTypeVector %float 4
// MIXED-DAG: %{{.*}} = OpTypeArray %[[V4]] %uint_16
// MIXED-NOT: OpTypeArray %float
// MIXED: OpFunction
// MIXED: OpLoad %[[V4]] %{{[0-9]+}} Aligned 16
// MIXED: %[[Q:[0-9]+]] = OpShiftRightLogical %uint %[[E:[0-9]+]] %uint_2
// MIXED: %[[C:[0-9]+]] = OpBitwiseAnd %uint %[[E]] %uint_3
// MIXED: %[[P:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_float %mixed_k0_add_arg_0 %uint_0 %[[Q]] %[[C]]
// MIXED: OpLoad %float %[[P]]
// MIXED: OpStore %{{[0-9]+}} %{{[0-9]+}} Aligned 16
func.func @mixed(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %t = uta.transpose %x [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  %0 = uta.add %x, %t : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// 1003 elements: float arrays; the 4 elements of a thread are 4 scalar
// loads gathered into a v4float, and 4 scalar stores.
// TAIL-NOT: OpTypeArray %v4float
// TAIL: OpTypeArray %float %uint_1003
// TAIL-NOT: OpTypeArray %v4float
// TAIL: OpFunction
// TAIL-COUNT-4: OpLoad %float
// TAIL: OpCompositeConstruct %v4float
// TAIL-NOT: OpLoad %v4float
// TAIL-NOT: OpStore {{.*}} Aligned 16
func.func @tail(%x: tensor<1003xf32>) -> tensor<1003xf32> {
  %0 = uta.exp %x : tensor<1003xf32>
  return %0 : tensor<1003xf32>
}

// The fused SGP layer in Cl(3,0) at F = 512: one feature per thread and
// round, so x, y and the result keep
// their float arrays (8 * 3 * 512 = 12288) and are accessed blade by blade;
// the path weights w [512, 20] are 2560 vec4, 5 per feature, 2 features
// per thread. (The float array of 1024 is the grade norm's workgroup sums.)
// SGP-DAG: %{{.*}} = OpTypeArray %float %uint_12288
// SGP-DAG: %{{.*}} = OpTypeArray %v4float %uint_2560
// SGP-DAG: %{{.*}} = OpTypeArray %float %uint_1024
// SGP: OpFunction
// SGP-COUNT-10: OpLoad %v4float {{.*}} Aligned 16
// SGP-NOT: OpLoad %v4float
// SGP: OpFunctionEnd
func.func @sgp(%x: tensor<8x3x512xf32>, %y: tensor<8x3x512xf32>,
               %w: tensor<512x20xf32>) -> tensor<8x3x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x3x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x3x512xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x3x512xf32>, tensor<8x3x512xf32>, tensor<512x20xf32>) -> tensor<8x3x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x3x512xf32>
  return %n : tensor<8x3x512xf32>
}
