// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true" -canonicalize -cse | FileCheck %s

// The order in which the warp-specialised fc_product's blocks are handed
// out. Three waves or more: one chunk of every row tile. Cl(3,0) in 3xTF32 at
// [8, 4096, *] and Fout 256: 512 blocks of 32 row tiles and 2 column
// tiles. Blades 1-6 (grades 1 and 2) have 6 slots, blades 0 and 7 have 4:
// blocks 0-383 are those of blades 1-6 (per row tile, 6 blades x 2 column
// tiles), blocks 384-511 those of blades 0 and 7 (per row tile, 2 x 2).

// CHECK-LABEL: gpu.func @large_k0_fc_product
//       CHECK:   %[[ID:.*]] = gpu.block_id x
//       CHECK:   %[[SHORT:.*]] = arith.cmpi uge, %[[ID]], %c384
//       CHECK:   %[[START:.*]] = arith.select %[[SHORT]], %c6, %c0
//       CHECK:   %[[SIZE:.*]] = arith.select %[[SHORT]], %c2, %c6
//       CHECK:   %[[FIRST:.*]] = arith.select %[[SHORT]], %c384, %c0
//       CHECK:   %[[IN_GROUP:.*]] = arith.subi %[[ID]], %[[FIRST]]
//       CHECK:   %[[PER_ROW_TILE:.*]] = arith.muli %[[SIZE]], %c2
//       CHECK:   %[[ROW_TILE:.*]] = arith.divui %[[IN_GROUP]], %[[PER_ROW_TILE]]
//       CHECK:   %[[IN_ROW_TILE:.*]] = arith.remui %[[IN_GROUP]], %[[PER_ROW_TILE]]
//       CHECK:   %[[OFFSET:.*]] = arith.divui %[[IN_ROW_TILE]], %c2
//       CHECK:   %[[POSITION:.*]] = arith.addi %[[START]], %[[OFFSET]]
//       CHECK:   %[[COLUMN_TILE:.*]] = arith.remui %[[IN_ROW_TILE]], %c2
//       CHECK:   %[[BLADE:.*]] = scf.index_switch %[[POSITION]] -> index
//  CHECK-NEXT:   case 0 {
//  CHECK-NEXT:     scf.yield %c1
//       CHECK:   case 5 {
//  CHECK-NEXT:     scf.yield %c6
//       CHECK:   case 6 {
//  CHECK-NEXT:     scf.yield %c0
//       CHECK:   case 7 {
//  CHECK-NEXT:     scf.yield %c7
//       CHECK:   arith.muli %[[ROW_TILE]], %c128
//       CHECK:   arith.muli %[[COLUMN_TILE]], %c128
func.func @large(%x: tensor<8x4096x64xf32>, %y: tensor<8x4096x64xf32>, %w: tensor<20x256x64xf32>) -> tensor<8x4096x256xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x4096x64xf32>, tensor<8x4096x64xf32>, tensor<20x256x64xf32>) -> tensor<8x4096x256xf32>
  return %r : tensor<8x4096x256xf32>
}

// Under three waves, two chunks of row tiles, each with the long blocks
// first. 384 rows: 3 row tiles, chunks of 2 (rows 0-1: blocks 0-31) and 1
// (row 2: blocks 32-47); in a chunk of r row tiles the blocks of blades
// 1-6 come first (r x 6 blades x 2 column tiles), then blades 0 and 7.
// CHECK-LABEL: gpu.func @small_k0_fc_product
//       CHECK:   %[[ID:.*]] = gpu.block_id x
//  CHECK-NEXT:   %[[CHUNK:.*]] = arith.divui %[[ID]], %c32
//  CHECK-NEXT:   %[[FIRST_ROW:.*]] = arith.muli %[[CHUNK]], %c2
//  CHECK-NEXT:   %[[ROWS_LEFT:.*]] = arith.subi %c3, %[[FIRST_ROW]]
//  CHECK-NEXT:   %[[ROWS:.*]] = arith.minui %[[ROWS_LEFT]], %c2
//  CHECK-NEXT:   %[[CHUNK_START:.*]] = arith.muli %[[CHUNK]], %c32
//  CHECK-NEXT:   %[[IN_CHUNK:.*]] = arith.subi %[[ID]], %[[CHUNK_START]]
//  CHECK-NEXT:   %[[LONG_BLOCKS:.*]] = arith.muli %[[ROWS]], %c12
//  CHECK-NEXT:   %[[SHORT:.*]] = arith.cmpi uge, %[[IN_CHUNK]], %[[LONG_BLOCKS]]
//  CHECK-NEXT:   %[[START:.*]] = arith.select %[[SHORT]], %c6, %c0
//  CHECK-NEXT:   %[[SIZE:.*]] = arith.select %[[SHORT]], %c2, %c6
//  CHECK-NEXT:   %[[FIRST:.*]] = arith.select %[[SHORT]], %[[LONG_BLOCKS]], %c0
//  CHECK-NEXT:   %[[IN_GROUP:.*]] = arith.subi %[[IN_CHUNK]], %[[FIRST]]
//  CHECK-NEXT:   %[[PER_ROW_TILE:.*]] = arith.muli %[[SIZE]], %c2
//  CHECK-NEXT:   %[[ROW_IN_CHUNK:.*]] = arith.divui %[[IN_GROUP]], %[[PER_ROW_TILE]]
//  CHECK-NEXT:   %[[ROW_TILE:.*]] = arith.addi %[[FIRST_ROW]], %[[ROW_IN_CHUNK]]
//       CHECK:   scf.index_switch
//       CHECK:   arith.muli %[[ROW_TILE]], %c128
func.func @small(%x: tensor<8x384x64xf32>, %y: tensor<8x384x64xf32>, %w: tensor<20x256x64xf32>) -> tensor<8x384x256xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x384x64xf32>, tensor<8x384x64xf32>, tensor<20x256x64xf32>) -> tensor<8x384x256xf32>
  return %r : tensor<8x384x256xf32>
}
