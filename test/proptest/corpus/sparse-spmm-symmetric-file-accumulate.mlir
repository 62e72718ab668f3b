// proptest: seed 2 index 201 ranks 3
// proptest-coverage: not a failure: a coverage case for sparse products (SpMM +=, B read from a symmetric MatrixMarket file with empty rows, 25 rows on 3 ranks, C replicated, 32-bit positions). The independent reference parses the embedded file itself (oracle.read_mtx) and expands the symmetry.
// proptest-sparse: spmm
// proptest-file: s2_i201_M.mtx
//| %%MatrixMarket matrix coordinate real symmetric
//| % written by test/proptest/gen.py
//| 25 25 25
//| 16 3 -0.013
//| 16 5 -0.254
//| 16 11 0.722
//| 16 16 0.959
//| 24 16 -0.406
//| 16 14 0.452
//| 16 8 0.051
//| 16 7 0.836
//| 23 16 -0.564
//| 16 13 0.648
//| 25 16 -0.17
//| 16 6 0.045
//| 16 12 0.866
//| 22 16 -0.074
//| 16 9 0.966
//| 20 16 0.104
//| 16 2 0.782
//| 16 4 0.773
//| 17 16 -0.555
//| 16 15 0.775
//| 18 16 0.99
//| 16 1 0.17
//| 16 10 -0.155
//| 21 16 -0.184
//| 19 16 -0.988

dist.grid @g_s2_i201 [3]
!s2_i201_Y = !dist.tensor<25x1xf64, #dist.layout<@g_s2_i201, "xy -> x">>
!s2_i201_M = !dist.tensor<25x25xf64, #dist.layout<@g_s2_i201, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32}>>
!s2_i201_X = !dist.tensor<25x1xf64, #dist.layout<@g_s2_i201, "xy -> *">>
func.func @pt_s2_i201(%Y: !s2_i201_Y, %M: !s2_i201_M, %X: !s2_i201_X) {
  dist.compute "Y(l,m) += M(l,j) * X(j,m)" (Y = %Y, M = %M, X = %X)
      schedule [distribute({l}, {lo}, {li}, Grid(3)),
                communicate({Y, M, X}, lo)]
      : !s2_i201_Y, !s2_i201_M, !s2_i201_X
  return
}

func.func @main() -> i32 {
  // computation s2_i201 (sparse)
  %s2_i201_Y = dist.alloc : !s2_i201_Y
  %s2_i201_M = dist.alloc : !s2_i201_M
  %s2_i201_X = dist.alloc : !s2_i201_X
  dist.fill %s2_i201_Y seed 2011 : !s2_i201_Y
  dist.load %s2_i201_M from "s2_i201_M.mtx" : !s2_i201_M
  dist.fill %s2_i201_X seed 2013 : !s2_i201_X
  func.call @pt_s2_i201(%s2_i201_Y, %s2_i201_M, %s2_i201_X) : (!s2_i201_Y, !s2_i201_M, !s2_i201_X) -> ()
  dist.store %s2_i201_Y to "out_s2_i201.dtensor" : !s2_i201_Y
  %ok = arith.constant 0 : i32
  return %ok : i32
}
