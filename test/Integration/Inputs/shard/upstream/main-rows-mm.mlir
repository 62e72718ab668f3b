// dist's @main for rows-mm.mlir after dist-import-shard (shard-upstream.test
// substitutes NNN): the inputs of cmp.py, the result to dist-out.npy.
!A = !dist.tensor<NNNxNNNxf64, #dist.layout<@line, [(0) blocked, ()]>>
!B = !dist.tensor<NNNxNNNxf64, #dist.layout<@line, [(), ()]>>
!C = !dist.tensor<NNNxNNNxf64, #dist.layout<@line, [(0) blocked, ()]>>
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  %d = dist.alloc : !C
  dist.load %a from "a.npy" : !A
  dist.load %b from "b.npy" : !B
  dist.load %c from "c.npy" : !C
  func.call @mm(%a, %b, %c, %d) : (!A, !B, !C, !C) -> ()
  dist.store %d to "dist-out.npy" : !C
  %ok = arith.constant 0 : i32
  return %ok : i32
}
