// fc_product with K-major weights ([P, Fout, Fin], transpose_weights) as
// the input gives them: tails in the batch (67), Fin (36) and Fout (17).
// The SIMT kernel on Vulkan, mma.sync on sm_90, wgmma (read where staged)
// with UTA_GPU_CHECK_FLAGS=--sm=90a.
func.func @fc_kmajor_cl200(%x: tensor<4x67x36xf32>, %y: tensor<4x67x36xf32>, %w: tensor<10x17x36xf32>) -> tensor<4x67x17xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<4x67x36xf32>, tensor<4x67x36xf32>, tensor<10x17x36xf32>) -> tensor<4x67x17xf32>
  return %r : tensor<4x67x17xf32>
}
