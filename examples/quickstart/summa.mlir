// The main example, run by scripts/quickstart.sh: SUMMA (van de Geijn and
// Watts, 1995; DISTAL Fig. 9, as in examples/distal/summa.mlir), the
// matrix product C = A * B of two 4096x4096 f64 matrices on a 2x2 grid of
// 4 MPI ranks.
//
// Every tensor is blocked over the grid ("xy -> xy": rows over the first
// grid axis, columns over the second), so each rank owns one 2048x2048
// tile of A, B and C. The schedule distributes the output's i and j loops
// over the grid (each rank computes its own tile of C, which never moves:
// communicate(C, jo)) and splits the sum over k into 16 steps of 256; at
// each step (communicate({A, B}, ko)) the ranks of a grid row broadcast
// their 2048x256 panel of A along the row and the ranks of a grid column
// their 256x2048 panel of B along the column, and every rank adds the
// product of the two panels to its tile of C with one OpenBLAS dgemm
// (substitute(..., gemm)).
//
// A and B are filled with fixed pseudo-random values in [-1, 1) (seeds 1
// and 2; the same values for any layout and any number of ranks). The
// program writes all three matrices to c.dtensor, a.dtensor and b.dtensor
// in its working directory (dist.store; row-major f64 after a small
// header, docs/reliability.md#tensor-files), so that a program that shares
// no code with dist can check C against A and B:
// examples/quickstart/check-dgemm.c, which scripts/quickstart.sh builds
// and runs.
//
//   scripts/quickstart.sh                          # build, run, check, time
//   dist-run -np 4 --time examples/quickstart/summa.mlir
//                                                  # only run it (writes the
//                                                  # .dtensor files here)
//   cc -O2 examples/quickstart/check-dgemm.c -o build/check-dgemm -lopenblas
//   build/check-dgemm c.dtensor a.dtensor b.dtensor 3 1
//
// At a smaller size (scripts/quickstart.sh -n 512 does this; at a multiple
// of 512 every transfer stays a broadcast, at other sizes dist-run warns
// that the panels move with the general exchange), with the reference
// evaluator of dist-run --check, which is too slow at n = 4096:
//   sed 's/4096x4096/512x512/g' examples/quickstart/summa.mlir > s.mlir
//   dist-run -np 4 --check s.mlir

dist.grid @m [2, 2]

!C = !dist.tensor<4096x4096xf64, #dist.layout<@m, "xy -> xy">>
!A = !dist.tensor<4096x4096xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<4096x4096xf64, #dist.layout<@m, "xy -> xy">>

func.func @summa(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 256),
                reorder({ko, ii, ji, ki}),
                communicate(C, jo), communicate({A, B}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !C, !A, !B
  return
}

func.func @main() -> i32 {
  %c = dist.alloc : !C
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !B
  func.call @summa(%c, %a, %b) : (!C, !A, !B) -> ()
  dist.store %c to "c.dtensor" : !C
  dist.store %a to "a.dtensor" : !A
  dist.store %b to "b.dtensor" : !B
  %ok = arith.constant 0 : i32
  return %ok : i32
}
