// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=tma128x256x64" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=tma128x256x32f32 allow-tf32=true" -canonicalize -cse | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=tma128x128x32x3" -canonicalize -cse | FileCheck %s --check-prefix=X3
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true" -canonicalize -cse | FileCheck %s --check-prefix=DEFAULT

// The warp-specialised TMA schedule (sm_90a, a named row): 384 threads, a
// producer warpgroup (threads 0-127) and two consumer warpgroups of 64x256.
// The operands come as tensor maps (boxes of 128 and 256 rows of 64 bf16,
// 128-byte swizzle) into four stages of tiles; one mbarrier per stage
// completes on a stage's bytes. The producer gives 40 of its registers'
// worth to the consumers (232 each); its first thread expects 48 KiB per
// stage and issues both boxes; its first warp waits for a stage's bytes
// and arrives on the stage's `full` named barrier (32 + 256 threads), and
// waits on the `empty` one (ids 5-8) before refilling a stage and, after
// its loop, for the last four. Consumers wait on `full`, issue four
// m64n256k16 wgmmas per step (the first step's ignore the accumulators),
// keep that group in flight, and release the step before on `empty`.
// CHECK-LABEL: func.func @linear
//       CHECK:   gpu.launch_func @kernels::@linear_k0_matmul blocks in (%c4, %c1, %c1) threads in (%c384, %c1, %c1) dynamic_shared_memory_size %c196640_i32 args({{.*}}, %[[MAP:.*]] : !llvm.ptr, %[[MAP]] : !llvm.ptr) {uta.flops = {bf16 = 134217728 : i64}, uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 64], warps = [2, 1], stages = 4, precision = "half">, uta.tensor_maps = [#uta.tensor_map<argument = 4, source = 0, box = [128, 64], swizzle = 128>, #uta.tensor_map<argument = 5, source = 1, box = [256, 64], swizzle = 128>]}
// CHECK-LABEL: gpu.func @linear_k0_matmul(
//  CHECK-SAME:     %[[AMAP:[^:]*]]: !llvm.ptr, %[[BMAP:[^:]*]]: !llvm.ptr) kernel attributes {known_block_size = array<i32: 384, 1, 1>, uta.tensor_maps
//       CHECK:   memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x128x64xbf16, #gpu.address_space<workgroup>>
//       CHECK:   memref.view %{{.*}}[%c65536][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x256x64xbf16, #gpu.address_space<workgroup>>
//       CHECK:   memref.view %{{.*}}[%c196608][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:   nvvm.mbarrier.init %{{.*}}, %c1_i32
//       CHECK:   nvvm.fence.mbarrier.init
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//  CHECK-NEXT:     nvvm.setmaxregister  decrease 40
//       CHECK:       scf.for %{{.*}} = %c0 to %c11 step %c1 {
//       CHECK:             nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
//       CHECK:           nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
//       CHECK:             nvvm.barrier id = %{{.*}} number_of_threads = %c288_i32
//       CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
//       CHECK:             nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[AMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}]
//       CHECK:             nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[BMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}]
//       CHECK:       nvvm.barrier id = %c5_i32 number_of_threads = %c288_i32
//  CHECK-NEXT:       nvvm.barrier id = %c6_i32 number_of_threads = %c288_i32
//  CHECK-NEXT:       nvvm.barrier id = %c7_i32 number_of_threads = %c288_i32
//  CHECK-NEXT:       nvvm.barrier id = %c8_i32 number_of_threads = %c288_i32
//       CHECK:   } else {
//  CHECK-NEXT:     nvvm.setmaxregister  increase 232
//  CHECK-NEXT:     nvvm.barrier id = %c1_i32 number_of_threads = %c288_i32
//       CHECK:     nvvm.wgmma.fence.aligned
//  CHECK-NEXT:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>]
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 1
//       CHECK:     scf.for %{{.*}} = %c1 to %c8 step %c1 iter_args
//       CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %c288_i32
//       CHECK:       nvvm.wgmma.wait.group.sync.aligned 1
//       CHECK:       nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0
//  CHECK-NEXT:     nvvm.barrier.arrive id = %c8_i32 number_of_threads = %c288_i32
// The epilogue stages the accumulators where the tiles were (128 x 264
// f32), between two waits on the consumers' own named barrier (15, 256
// threads), and stores 4 consecutive elements per thread and turn.
//       CHECK:     %[[STAGING:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x264xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:     nvvm.barrier id = %c15_i32 number_of_threads = %c256_i32
//       CHECK:     vector.store %{{.*}}, %[[STAGING]]{{.*}} vector<2xf32>
//       CHECK:     nvvm.barrier id = %c15_i32 number_of_threads = %c256_i32
//       CHECK:     scf.for %{{.*}} = %c0 to %c8192 step %c256 {
//       CHECK:       vector.load %[[STAGING]]{{.*}} vector<4xf32>
//       CHECK:       vector.store %{{.*}}, %arg2{{.*}} vector<4xbf16>

// Without a named row the heuristic keeps the cp.async wgmma schedule.
// DEFAULT-LABEL: gpu.func @linear_k0_matmul
//   DEFAULT-NOT:   nvvm.cp.async.bulk.tensor
//       DEFAULT:   nvgpu.device_async_copy
func.func @linear(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16>
  return %r : tensor<256x512xbf16>
}

// -----

// In plain TF32 the producer only copies (40 registers; 232 for the
// consumers): the tensor cores read B as it landed. Each consumer loads
// its A fragments from the swizzled stage, one ldmatrix each (lane l
// addresses row l % 8 of matrix l / 8, its chunk c at c ^ (l % 8)), rounds them to TF32 in registers and issues wgmmas with A in
// registers (k = 8), keeping one group in flight. The K loop runs two
// steps per iteration (16 steps: 8 iterations), each on its own A
// registers: after a step's wait, the step before's registers, whose
// products are then complete, are held (operands of stores to the holds'
// words, one per fragment, behind a branch on the clock) and its stage
// released.
// TF32-LABEL: gpu.func @linear_f32_k0_matmul
//       TF32:   nvvm.setmaxregister  decrease 40
//   TF32-NOT:   nvvm.fence.proxy
//       TF32:   nvvm.setmaxregister  increase 232
//       TF32:   scf.for %[[PAIR:.*]] = %c0 to %c8 step %c1 iter_args(
//       TF32:   %[[EVEN:.*]] = arith.muli %[[PAIR]], %c2 : index
//       TF32:   nvvm.barrier id =
//       TF32:   %[[LANE:.*]] = arith.remui %{{.*}}, %c32 : index
//       TF32:   %[[MATRIX:.*]] = arith.divui %[[LANE]], %c8 : index
//       TF32:   %[[MATRIXROW:.*]] = arith.remui %[[LANE]], %c8 : index
//       TF32:   %[[HALF:.*]] = arith.divui %[[MATRIX]], %c2 : index
//       TF32:   %[[CHUNK:.*]] = arith.xori %[[HALF]], %[[MATRIXROW]] : index
//       TF32:   %[[COLUMN:.*]] = arith.muli %[[CHUNK]], %c4 : index
//       TF32:   nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}, %[[COLUMN]]] {numTiles = 4 : i32, transpose = false} : memref<4x128x32xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
//       TF32:   %[[CHUNK2:.*]] = arith.addi %[[HALF]], %c2 : index
//       TF32:   arith.xori %[[CHUNK2]], %[[MATRIXROW]] : index
//       TF32:   nvgpu.ldmatrix
//       TF32:   arith.addi %{{.*}}, %c4096_i32 : i32
//   TF32-NOT:   arith.andi
//       TF32:   nvvm.wgmma.fence.aligned
//       TF32:   llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $261, 0;\0Awgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {$0, {{.*}}, $127}, {$256, $257, $258, $259}, $260, p, 1, 1;\0A}", "=f,{{.*}},=f,0,1,{{.*}},127,r,r,r,r,l,n"
//   TF32-NOT:   nvvm.wgmma.mma_async
//       TF32:   nvvm.wgmma.commit.group.sync.aligned
//  TF32-NEXT:   nvvm.wgmma.wait.group.sync.aligned 1
//       TF32:   llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0A.reg .b32 c;\0Amov.u32 c, %clock;\0Asetp.ne.u32 p, c, 0;\0A@p bra HOLD_${:uid};\0Ast.shared.v4.b32 [$0+0], {$1, $2, $3, $4};\0A{{.*}}st.shared.v4.b32 [$0+48], {$13, $14, $15, $16};\0AHOLD_${:uid}:\0A}", "r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r"
//       TF32:   %[[PREVIOUS:.*]] = arith.cmpi uge, %[[EVEN]], %c1 : index
//       TF32:   scf.if %[[PREVIOUS]] {
//       TF32:     nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
//       TF32:   nvvm.wgmma.wait.group.sync.aligned 1
//       TF32:   scf.yield
//       TF32:   nvvm.wgmma.wait.group.sync.aligned 0
//       TF32:   llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;

// With 3xTF32 the producer writes the remainders of each landed B tile
// into a tile of their own (B's high parts stay in place, truncated by the
// tensor cores); each consumer splits its A fragments in registers into
// rounded high parts and remainders. Each step's three products go into
// fresh accumulators, waited for and added in f32; the next step's A
// fragments load (after its stage's hand-over) while they run.
// X3-LABEL: gpu.func @linear_f32_k0_matmul
//       X3:   memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       X3:   memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       X3:   %[[BSMALL:.*]] = memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//  X3-NEXT:   memref.view {{.*}} to memref<4xi64, #gpu.address_space<workgroup>>
//       X3:   nvvm.setmaxregister  decrease 56
//       X3:   arith.subf %{{.*}}, %{{.*}} : vector<4xf32>
//       X3:   vector.store %{{.*}}, %[[BSMALL]]
//       X3:   nvvm.setmaxregister  increase 224
//       X3:   nvgpu.ldmatrix
//       X3:   scf.for
//       X3:     arith.subf %{{.*}}, %{{.*}} : f32
//       X3:     nvvm.wgmma.fence.aligned
//       X3:     wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
//       X3:     nvvm.wgmma.commit.group.sync.aligned
//       X3:     scf.if %{{.*}} -> (f32,
//       X3:       nvvm.barrier id = %{{.*}} number_of_threads = %c384_i32
//       X3:       nvgpu.ldmatrix
//       X3:     nvvm.wgmma.wait.group.sync.aligned 0
//       X3:     nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
//       X3:     arith.addf %{{.*}}, %{{.*}} : f32

func.func @linear_f32(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
