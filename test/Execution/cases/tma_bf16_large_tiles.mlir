// gpu-check: --sm=90a --uta-gemm-config=tma128x256x64
// The warp-specialised TMA schedule (sm_90a) on its large tile, a producer
// and two consumer warpgroups, with tails in M, N and K (K = 200: three
// full K tiles and a partial one, zero-filled by the tensor maps).
func.func @tma_bf16_large_tiles(%a: tensor<520x200xbf16>, %b: tensor<700x200xbf16>) -> tensor<520x700xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<520x200xbf16>, tensor<700x200xbf16>) -> tensor<520x700xbf16>
  return %r : tensor<520x700xbf16>
}
