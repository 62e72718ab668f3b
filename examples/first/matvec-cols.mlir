// Your first program, part 2 (docs/tutorial.md, "Your first program"):
// the same y(i) = sum_j A(i,j) * x(j), now with A distributed by columns
// and x by blocks, so each process holds a slice of the summed index j.
// The j loop is distributed: each process computes a partial y from its
// columns, and the partial sums are added up across the grid (a reduction)
// into y, which every process holds (replicated).
//
// j comes after i in the loop nest (output variables first), and a
// distributed loop must be outermost, so the schedule moves jo out with
// reorder.
//
//   dist-opt --dist-report-communication examples/first/matvec-cols.mlir -o /dev/null
//   dist-run -np 4 --check examples/first/matvec-cols.mlir

dist.grid @m [4]

!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> y">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> *">>

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %x = dist.alloc : !x
  %y = dist.alloc : !y
  dist.fill %a seed 1 : !A
  dist.fill %x seed 2 : !x
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({j}, {jo}, {ji}, Grid(4)),
                reorder({jo, i, ji})]
      : !y, !A, !x
  %ok = arith.constant 0 : i32
  return %ok : i32
}
