// gpu-check: --sm=90a --uta-gemm-config=wgmma128x256x64
// wgmma schedule (sm_90a): the two-warpgroup 128x256 tile, with tails in M,
// N and K (K = 200: three full K tiles and a partial one).
func.func @wgmma_bf16_large_tiles(%a: tensor<520x200xbf16>, %b: tensor<700x200xbf16>) -> tensor<520x700xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<520x200xbf16>, tensor<700x200xbf16>) -> tensor<520x700xbf16>
  return %r : tensor<520x700xbf16>
}
