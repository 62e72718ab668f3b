// Writes the two input matrices of examples/io/summa-files.mlir as dist
// tensor files: B (64x64, seed 1) from a cyclic layout and C (64x64,
// seed 2) from a row-blocked one. The files do not depend on the layout or
// the number of ranks (dist-tensor check-fill verifies them).
//
//   dist-run -np 4 examples/io/make-inputs.mlir     # writes b.dtensor, c.dtensor
//   dist-tensor check-fill b.dtensor 1

dist.grid @m [2, 2]

!Bc = !dist.tensor<64x64xf64, #dist.layout<@m, "[(1),(0)]">>
!Cr = !dist.tensor<64x64xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>

func.func @main() -> i32 {
  %b = dist.alloc : !Bc
  %c = dist.alloc : !Cr
  dist.fill %b seed 1 : !Bc
  dist.fill %c seed 2 : !Cr
  dist.store %b to "b.dtensor" : !Bc
  dist.store %c to "c.dtensor" : !Cr
  %ok = arith.constant 0 : i32
  return %ok : i32
}
