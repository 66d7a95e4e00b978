// Every uta op, in every dtype it supports, compiles to PTX that ptxas
// accepts for sm_90; shapes have tails (not multiples of the block size).
// REQUIRES: ptxas
// RUN: utac %s --compile-to=ptx -o /dev/null > %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// CHECK-DAG: .entry add_f32_k0_
// CHECK-DAG: .entry sub_f32_k0_
// CHECK-DAG: .entry mul_f32_k0_
// CHECK-DAG: .entry div_f32_k0_
// CHECK-DAG: .entry max_f32_k0_
// CHECK-DAG: .entry min_f32_k0_
// CHECK-DAG: .entry neg_f32_k0_
// CHECK-DAG: .entry abs_f32_k0_
// CHECK-DAG: .entry sign_f32_k0_
// CHECK-DAG: .entry exp_f32_k0_
// CHECK-DAG: .entry log_f32_k0_
// CHECK-DAG: .entry sqrt_f32_k0_
// CHECK-DAG: .entry rsqrt_f32_k0_
// CHECK-DAG: .entry tanh_f32_k0_
// CHECK-DAG: .entry erf_f32_k0_
// CHECK-DAG: .entry pow_f32_k0_
// CHECK-DAG: .entry sigmoid_f32_k0_
// CHECK-DAG: .entry relu_f32_k0_
// CHECK-DAG: .entry silu_f32_k0_
// CHECK-DAG: .entry gelu_f32_k0_
// CHECK-DAG: .entry gelu_tanh_f32_k0_
// CHECK-DAG: .entry matmul_tb_f32_k0_
// CHECK-DAG: .entry matmul_f32_k0_
// CHECK-DAG: .entry transpose_f32_k0_
// CHECK-DAG: .entry reshape_f32_k0_
// CHECK-DAG: .entry broadcast_f32_k0_
// CHECK-DAG: .entry cast_f32_to_f16_k0_
// CHECK-DAG: .entry cast_f32_to_bf16_k0_
// CHECK-DAG: .entry add_f16_k0_
// CHECK-DAG: .entry sub_f16_k0_
// CHECK-DAG: .entry mul_f16_k0_
// CHECK-DAG: .entry div_f16_k0_
// CHECK-DAG: .entry max_f16_k0_
// CHECK-DAG: .entry min_f16_k0_
// CHECK-DAG: .entry neg_f16_k0_
// CHECK-DAG: .entry abs_f16_k0_
// CHECK-DAG: .entry sign_f16_k0_
// CHECK-DAG: .entry exp_f16_k0_
// CHECK-DAG: .entry log_f16_k0_
// CHECK-DAG: .entry sqrt_f16_k0_
// CHECK-DAG: .entry rsqrt_f16_k0_
// CHECK-DAG: .entry tanh_f16_k0_
// CHECK-DAG: .entry erf_f16_k0_
// CHECK-DAG: .entry pow_f16_k0_
// CHECK-DAG: .entry sigmoid_f16_k0_
// CHECK-DAG: .entry relu_f16_k0_
// CHECK-DAG: .entry silu_f16_k0_
// CHECK-DAG: .entry gelu_f16_k0_
// CHECK-DAG: .entry gelu_tanh_f16_k0_
// CHECK-DAG: .entry matmul_tb_f16_k0_
// CHECK-DAG: .entry matmul_f16_k0_
// CHECK-DAG: .entry transpose_f16_k0_
// CHECK-DAG: .entry reshape_f16_k0_
// CHECK-DAG: .entry broadcast_f16_k0_
// CHECK-DAG: .entry cast_f16_to_f32_k0_
// CHECK-DAG: .entry cast_f16_to_bf16_k0_
// CHECK-DAG: .entry add_bf16_k0_
// CHECK-DAG: .entry sub_bf16_k0_
// CHECK-DAG: .entry mul_bf16_k0_
// CHECK-DAG: .entry div_bf16_k0_
// CHECK-DAG: .entry max_bf16_k0_
// CHECK-DAG: .entry min_bf16_k0_
// CHECK-DAG: .entry neg_bf16_k0_
// CHECK-DAG: .entry abs_bf16_k0_
// CHECK-DAG: .entry sign_bf16_k0_
// CHECK-DAG: .entry exp_bf16_k0_
// CHECK-DAG: .entry log_bf16_k0_
// CHECK-DAG: .entry sqrt_bf16_k0_
// CHECK-DAG: .entry rsqrt_bf16_k0_
// CHECK-DAG: .entry tanh_bf16_k0_
// CHECK-DAG: .entry erf_bf16_k0_
// CHECK-DAG: .entry pow_bf16_k0_
// CHECK-DAG: .entry sigmoid_bf16_k0_
// CHECK-DAG: .entry relu_bf16_k0_
// CHECK-DAG: .entry silu_bf16_k0_
// CHECK-DAG: .entry gelu_bf16_k0_
// CHECK-DAG: .entry gelu_tanh_bf16_k0_
// CHECK-DAG: .entry matmul_tb_bf16_k0_
// CHECK-DAG: .entry matmul_bf16_k0_
// CHECK-DAG: .entry transpose_bf16_k0_
// CHECK-DAG: .entry reshape_bf16_k0_
// CHECK-DAG: .entry broadcast_bf16_k0_
// CHECK-DAG: .entry cast_bf16_to_f32_k0_
// CHECK-DAG: .entry cast_bf16_to_f16_k0_
// CHECK-DAG: .entry reduce_sum_k0_
// CHECK-DAG: .entry reduce_sum_keep_k0_
// CHECK-DAG: .entry reduce_max_k0_
// CHECK-DAG: .entry reduce_max_keep_k0_
// CHECK-DAG: .entry reduce_mean_k0_
// CHECK-DAG: .entry reduce_mean_keep_k0_
// CHECK-DAG: .entry softmax_k0_
// CHECK-DAG: .entry layer_norm_k0_
func.func @add_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.add %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @sub_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.sub %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @mul_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.mul %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @div_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.div %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @max_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.max %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @min_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.min %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @neg_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.neg %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @abs_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.abs %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @sign_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.sign %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @exp_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.exp %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @log_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.log %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @sqrt_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.sqrt %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @rsqrt_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.rsqrt %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @erf_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.erf %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @pow_f32(%a: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.pow %a, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @tanh_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.tanh %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @sigmoid_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.sigmoid %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @relu_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.relu %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @silu_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.silu %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @gelu_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.gelu %a : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @gelu_tanh_f32(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.gelu %a {tanh_approximation = true} : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @matmul_tb_f32(%a: tensor<3x33x65xf32>, %b: tensor<17x65xf32>) -> tensor<3x33x17xf32> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<3x33x65xf32>, tensor<17x65xf32>) -> tensor<3x33x17xf32>
  return %0 : tensor<3x33x17xf32>
}
func.func @matmul_f32(%a: tensor<33x65xf32>, %b: tensor<65x17xf32>) -> tensor<33x17xf32> {
  %0 = uta.matmul %a, %b : (tensor<33x65xf32>, tensor<65x17xf32>) -> tensor<33x17xf32>
  return %0 : tensor<33x17xf32>
}
func.func @transpose_f32(%a: tensor<37x129xf32>) -> tensor<129x37xf32> {
  %0 = uta.transpose %a [1, 0] : tensor<37x129xf32> -> tensor<129x37xf32>
  return %0 : tensor<129x37xf32>
}
func.func @reshape_f32(%a: tensor<37x129xf32>) -> tensor<4773xf32> {
  %0 = uta.reshape %a : tensor<37x129xf32> -> tensor<4773xf32>
  return %0 : tensor<4773xf32>
}
func.func @broadcast_f32(%a: tensor<37x129xf32>) -> tensor<5x37x129xf32> {
  %0 = uta.broadcast_to %a : tensor<37x129xf32> -> tensor<5x37x129xf32>
  return %0 : tensor<5x37x129xf32>
}
func.func @cast_f32_to_f16(%a: tensor<37x129xf32>) -> tensor<37x129xf16> {
  %0 = uta.cast %a : tensor<37x129xf32> -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @cast_f32_to_bf16(%a: tensor<37x129xf32>) -> tensor<37x129xbf16> {
  %0 = uta.cast %a : tensor<37x129xf32> -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @add_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.add %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @sub_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.sub %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @mul_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.mul %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @div_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.div %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @max_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.max %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @min_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.min %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @neg_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.neg %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @abs_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.abs %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @sign_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.sign %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @exp_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.exp %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @log_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.log %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @sqrt_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.sqrt %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @rsqrt_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.rsqrt %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @erf_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.erf %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @pow_f16(%a: tensor<37x129xf16>, %b: tensor<129xf16>) -> tensor<37x129xf16> {
  %0 = uta.pow %a, %b : (tensor<37x129xf16>, tensor<129xf16>) -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @tanh_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.tanh %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @sigmoid_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.sigmoid %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @relu_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.relu %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @silu_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.silu %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @gelu_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.gelu %a : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @gelu_tanh_f16(%a: tensor<37x129xf16>) -> tensor<37x129xf16> {
  %0 = uta.gelu %a {tanh_approximation = true} : tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @matmul_tb_f16(%a: tensor<3x33x65xf16>, %b: tensor<17x65xf16>) -> tensor<3x33x17xf16> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<3x33x65xf16>, tensor<17x65xf16>) -> tensor<3x33x17xf16>
  return %0 : tensor<3x33x17xf16>
}
func.func @matmul_f16(%a: tensor<33x65xf16>, %b: tensor<65x17xf16>) -> tensor<33x17xf16> {
  %0 = uta.matmul %a, %b : (tensor<33x65xf16>, tensor<65x17xf16>) -> tensor<33x17xf16>
  return %0 : tensor<33x17xf16>
}
func.func @transpose_f16(%a: tensor<37x129xf16>) -> tensor<129x37xf16> {
  %0 = uta.transpose %a [1, 0] : tensor<37x129xf16> -> tensor<129x37xf16>
  return %0 : tensor<129x37xf16>
}
func.func @reshape_f16(%a: tensor<37x129xf16>) -> tensor<4773xf16> {
  %0 = uta.reshape %a : tensor<37x129xf16> -> tensor<4773xf16>
  return %0 : tensor<4773xf16>
}
func.func @broadcast_f16(%a: tensor<37x129xf16>) -> tensor<5x37x129xf16> {
  %0 = uta.broadcast_to %a : tensor<37x129xf16> -> tensor<5x37x129xf16>
  return %0 : tensor<5x37x129xf16>
}
func.func @cast_f16_to_f32(%a: tensor<37x129xf16>) -> tensor<37x129xf32> {
  %0 = uta.cast %a : tensor<37x129xf16> -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @cast_f16_to_bf16(%a: tensor<37x129xf16>) -> tensor<37x129xbf16> {
  %0 = uta.cast %a : tensor<37x129xf16> -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @add_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.add %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @sub_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.sub %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @mul_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.mul %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @div_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.div %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @max_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.max %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @min_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.min %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @neg_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.neg %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @abs_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.abs %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @sign_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.sign %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @exp_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.exp %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @log_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.log %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @sqrt_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.sqrt %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @rsqrt_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.rsqrt %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @erf_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.erf %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @pow_bf16(%a: tensor<37x129xbf16>, %b: tensor<129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.pow %a, %b : (tensor<37x129xbf16>, tensor<129xbf16>) -> tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @tanh_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.tanh %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @sigmoid_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.sigmoid %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @relu_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.relu %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @silu_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.silu %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @gelu_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.gelu %a : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @gelu_tanh_bf16(%a: tensor<37x129xbf16>) -> tensor<37x129xbf16> {
  %0 = uta.gelu %a {tanh_approximation = true} : tensor<37x129xbf16>
  return %0 : tensor<37x129xbf16>
}
func.func @matmul_tb_bf16(%a: tensor<3x33x65xbf16>, %b: tensor<17x65xbf16>) -> tensor<3x33x17xbf16> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<3x33x65xbf16>, tensor<17x65xbf16>) -> tensor<3x33x17xbf16>
  return %0 : tensor<3x33x17xbf16>
}
func.func @matmul_bf16(%a: tensor<33x65xbf16>, %b: tensor<65x17xbf16>) -> tensor<33x17xbf16> {
  %0 = uta.matmul %a, %b : (tensor<33x65xbf16>, tensor<65x17xbf16>) -> tensor<33x17xbf16>
  return %0 : tensor<33x17xbf16>
}
func.func @transpose_bf16(%a: tensor<37x129xbf16>) -> tensor<129x37xbf16> {
  %0 = uta.transpose %a [1, 0] : tensor<37x129xbf16> -> tensor<129x37xbf16>
  return %0 : tensor<129x37xbf16>
}
func.func @reshape_bf16(%a: tensor<37x129xbf16>) -> tensor<4773xbf16> {
  %0 = uta.reshape %a : tensor<37x129xbf16> -> tensor<4773xbf16>
  return %0 : tensor<4773xbf16>
}
func.func @broadcast_bf16(%a: tensor<37x129xbf16>) -> tensor<5x37x129xbf16> {
  %0 = uta.broadcast_to %a : tensor<37x129xbf16> -> tensor<5x37x129xbf16>
  return %0 : tensor<5x37x129xbf16>
}
func.func @cast_bf16_to_f32(%a: tensor<37x129xbf16>) -> tensor<37x129xf32> {
  %0 = uta.cast %a : tensor<37x129xbf16> -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @cast_bf16_to_f16(%a: tensor<37x129xbf16>) -> tensor<37x129xf16> {
  %0 = uta.cast %a : tensor<37x129xbf16> -> tensor<37x129xf16>
  return %0 : tensor<37x129xf16>
}
func.func @reduce_sum(%a: tensor<37x129xf32>) -> tensor<37xf32> {
  %0 = uta.reduce_sum %a dims [1] : tensor<37x129xf32> -> tensor<37xf32>
  return %0 : tensor<37xf32>
}
func.func @reduce_sum_keep(%a: tensor<37x129xf32>) -> tensor<1x129xf32> {
  %0 = uta.reduce_sum %a dims [0] {keep_dims = true} : tensor<37x129xf32> -> tensor<1x129xf32>
  return %0 : tensor<1x129xf32>
}
func.func @reduce_max(%a: tensor<37x129xf32>) -> tensor<37xf32> {
  %0 = uta.reduce_max %a dims [1] : tensor<37x129xf32> -> tensor<37xf32>
  return %0 : tensor<37xf32>
}
func.func @reduce_max_keep(%a: tensor<37x129xf32>) -> tensor<1x129xf32> {
  %0 = uta.reduce_max %a dims [0] {keep_dims = true} : tensor<37x129xf32> -> tensor<1x129xf32>
  return %0 : tensor<1x129xf32>
}
func.func @reduce_mean(%a: tensor<37x129xf32>) -> tensor<37xf32> {
  %0 = uta.reduce_mean %a dims [1] : tensor<37x129xf32> -> tensor<37xf32>
  return %0 : tensor<37xf32>
}
func.func @reduce_mean_keep(%a: tensor<37x129xf32>) -> tensor<1x129xf32> {
  %0 = uta.reduce_mean %a dims [0] {keep_dims = true} : tensor<37x129xf32> -> tensor<1x129xf32>
  return %0 : tensor<1x129xf32>
}
func.func @softmax(%a: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %0 = uta.softmax %a dim 1 : tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
func.func @layer_norm(%a: tensor<37x129xf32>, %w: tensor<129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = uta.layer_norm %a, %w, %b axis 1 : (tensor<37x129xf32>, tensor<129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
