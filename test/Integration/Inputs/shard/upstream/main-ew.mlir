// dist's @main for ew.mlir after dist-import-shard (shard-upstream.test
// substitutes NNN): the inputs of cmp.py, the result to dist-out.npy.
!V = !dist.tensor<NNNxf64, #dist.layout<@line, [(0) blocked]>>
func.func @main() -> i32 {
  %x = dist.alloc : !V
  %w = dist.alloc : !V
  %y = dist.alloc : !V
  dist.load %x from "x.npy" : !V
  dist.load %w from "w.npy" : !V
  func.call @ew(%x, %w, %y) : (!V, !V, !V) -> ()
  dist.store %y to "dist-out.npy" : !V
  %ok = arith.constant 0 : i32
  return %ok : i32
}
