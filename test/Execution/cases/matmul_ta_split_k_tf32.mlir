// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// A weight gradient x^T g over a batch of 8192, 512x512: on CUDA
// uta-split-k runs it as 8 partial products over runs of 1024 (128 blocks
// of 128x128) and their sum in order; the reference computes it unsplit.
func.func @matmul_ta_split_k_tf32(%x: tensor<8192x512xf32>, %g: tensor<8192x512xf32>) -> tensor<512x512xf32> {
  %r = uta.matmul %x, %g {transpose_a = true} : (tensor<8192x512xf32>, tensor<8192x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
