// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true" -canonicalize -cse | FileCheck %s --check-prefix=ONE
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true" -canonicalize -cse | FileCheck %s --check-prefix=TWO

// The order in which the warp-specialised fc_product's blocks are handed
// out: the blades with most slots first, in chunks of row tiles. One chunk
// of every row tile in TF32 (steps K tile by K tile) with a grid of three
// waves or more; else two.
//
// One chunk: Cl(3,0) in TF32 at [8, 4096, *] and Fout 512, 512 blocks of
// 32 row tiles and 2 column tiles of 256. Blades 1-6 (grades 1 and 2) have 6
// slots, blades 0 and 7 have 4: blocks 0-383 are those of blades 1-6 (per
// row tile, 6 blades x 2 column tiles), blocks 384-511 those of blades 0
// and 7 (per row tile, 2 x 2).

//   ONE-LABEL: gpu.func @large_k0_fc_product
//         ONE:   %[[ID:.*]] = gpu.block_id x
//         ONE:   %[[SHORT:.*]] = arith.cmpi uge, %[[ID]], %c384
//         ONE:   %[[START:.*]] = arith.select %[[SHORT]], %c6, %c0
//         ONE:   %[[SIZE:.*]] = arith.select %[[SHORT]], %c2, %c6
//         ONE:   %[[FIRST:.*]] = arith.select %[[SHORT]], %c384, %c0
//         ONE:   %[[IN_GROUP:.*]] = arith.subi %[[ID]], %[[FIRST]]
//         ONE:   %[[PER_ROW_TILE:.*]] = arith.muli %[[SIZE]], %c2
//         ONE:   %[[ROW_TILE:.*]] = arith.divui %[[IN_GROUP]], %[[PER_ROW_TILE]]
//         ONE:   %[[IN_ROW_TILE:.*]] = arith.remui %[[IN_GROUP]], %[[PER_ROW_TILE]]
//         ONE:   %[[OFFSET:.*]] = arith.divui %[[IN_ROW_TILE]], %c2
//         ONE:   %[[POSITION:.*]] = arith.addi %[[START]], %[[OFFSET]]
//         ONE:   %[[COLUMN_TILE:.*]] = arith.remui %[[IN_ROW_TILE]], %c2
//         ONE:   %[[BLADE:.*]] = scf.index_switch %[[POSITION]] -> index
//    ONE-NEXT:   case 0 {
//    ONE-NEXT:     scf.yield %c1
//         ONE:   case 5 {
//    ONE-NEXT:     scf.yield %c6
//         ONE:   case 6 {
//    ONE-NEXT:     scf.yield %c0
//         ONE:   case 7 {
//    ONE-NEXT:     scf.yield %c7
//         ONE:   arith.muli %[[ROW_TILE]], %c128
//         ONE:   arith.muli %[[COLUMN_TILE]], %c256
func.func @large(%x: tensor<8x4096x64xf32>, %y: tensor<8x4096x64xf32>, %w: tensor<20x512x64xf32>) -> tensor<8x4096x512xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x4096x64xf32>, tensor<8x4096x64xf32>, tensor<20x512x64xf32>) -> tensor<8x4096x512xf32>
  return %r : tensor<8x4096x512xf32>
}

// Two chunks: 3xTF32 at 384 rows, 3 row tiles in chunks of 2 (rows 0-1:
// blocks 0-31) and 1 (row 2: blocks 32-47); in a chunk of r row tiles the
// blocks of blades 1-6 come first (r x 6 blades x 2 column tiles of 128),
// then blades 0 and 7.
//   TWO-LABEL: gpu.func @small_k0_fc_product
//         TWO:   %[[ID:.*]] = gpu.block_id x
//    TWO-NEXT:   %[[CHUNK:.*]] = arith.divui %[[ID]], %c32
//    TWO-NEXT:   %[[FIRST_ROW:.*]] = arith.muli %[[CHUNK]], %c2
//    TWO-NEXT:   %[[ROWS_LEFT:.*]] = arith.subi %c3, %[[FIRST_ROW]]
//    TWO-NEXT:   %[[ROWS:.*]] = arith.minui %[[ROWS_LEFT]], %c2
//    TWO-NEXT:   %[[CHUNK_START:.*]] = arith.muli %[[CHUNK]], %c32
//    TWO-NEXT:   %[[IN_CHUNK:.*]] = arith.subi %[[ID]], %[[CHUNK_START]]
//    TWO-NEXT:   %[[LONG_BLOCKS:.*]] = arith.muli %[[ROWS]], %c12
//    TWO-NEXT:   %[[SHORT:.*]] = arith.cmpi uge, %[[IN_CHUNK]], %[[LONG_BLOCKS]]
//    TWO-NEXT:   %[[START:.*]] = arith.select %[[SHORT]], %c6, %c0
//    TWO-NEXT:   %[[SIZE:.*]] = arith.select %[[SHORT]], %c2, %c6
//    TWO-NEXT:   %[[FIRST:.*]] = arith.select %[[SHORT]], %[[LONG_BLOCKS]], %c0
//    TWO-NEXT:   %[[IN_GROUP:.*]] = arith.subi %[[IN_CHUNK]], %[[FIRST]]
//    TWO-NEXT:   %[[PER_ROW_TILE:.*]] = arith.muli %[[SIZE]], %c2
//    TWO-NEXT:   %[[ROW_IN_CHUNK:.*]] = arith.divui %[[IN_GROUP]], %[[PER_ROW_TILE]]
//    TWO-NEXT:   %[[ROW_TILE:.*]] = arith.addi %[[FIRST_ROW]], %[[ROW_IN_CHUNK]]
//         TWO:   scf.index_switch
//         TWO:   arith.muli %[[ROW_TILE]], %c128
func.func @small(%x: tensor<8x384x64xf32>, %y: tensor<8x384x64xf32>, %w: tensor<20x256x64xf32>) -> tensor<8x384x256xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x384x64xf32>, tensor<8x384x64xf32>, tensor<20x256x64xf32>) -> tensor<8x384x256xf32>
  return %r : tensor<8x384x256xf32>
}
