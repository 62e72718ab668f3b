// proptest: seed 1 index 884 ranks 3
// proptest-coverage: not a failure: a coverage case for sparse products (SpMV, B read from a MatrixMarket file, 2 rows on 3 ranks so rank 2 holds no row but owns part of the blocked c, 6 columns). The independent reference parses the embedded file itself (oracle.read_mtx).
// proptest-sparse: spmv
// proptest-file: s1_i884_C.mtx
//| %%MatrixMarket matrix coordinate real general
//| % written by test/proptest/gen.py
//| 2 6 6
//| 2 6 -0.025
//| 2 2 0.733
//| 2 1 0.275
//| 2 3 -0.191
//| 2 5 0.619
//| 2 4 0.378

dist.grid @g_s1_i884 [3]
!s1_i884_A = !dist.tensor<2xf64, #dist.layout<@g_s1_i884, "x -> x">>
!s1_i884_C = !dist.tensor<2x6xf64, #dist.layout<@g_s1_i884, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>>
!s1_i884_B = !dist.tensor<6xf64, #dist.layout<@g_s1_i884, "x -> x">>
func.func @pt_s1_i884(%A: !s1_i884_A, %C: !s1_i884_C, %B: !s1_i884_B) {
  dist.compute "A(l) = C(l,j) * B(j)" (A = %A, C = %C, B = %B)
      schedule [distribute({l}, {lo}, {li}, Grid(3)),
                communicate({A, C, B}, lo)]
      : !s1_i884_A, !s1_i884_C, !s1_i884_B
  return
}

func.func @main() -> i32 {
  // computation s1_i884 (sparse)
  %s1_i884_A = dist.alloc : !s1_i884_A
  %s1_i884_C = dist.alloc : !s1_i884_C
  %s1_i884_B = dist.alloc : !s1_i884_B
  dist.fill %s1_i884_A seed 8841 : !s1_i884_A
  dist.load %s1_i884_C from "s1_i884_C.mtx" : !s1_i884_C
  dist.fill %s1_i884_B seed 8843 : !s1_i884_B
  func.call @pt_s1_i884(%s1_i884_A, %s1_i884_C, %s1_i884_B) : (!s1_i884_A, !s1_i884_C, !s1_i884_B) -> ()
  dist.store %s1_i884_A to "out_s1_i884.dtensor" : !s1_i884_A
  %ok = arith.constant 0 : i32
  return %ok : i32
}
