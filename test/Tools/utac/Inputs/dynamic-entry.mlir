// An entry whose argument has a dynamic extent: its buffer's size is not
// known when the graph is compiled.
func.func @passthrough(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
