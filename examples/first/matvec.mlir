// Your first program (docs/tutorial.md, "Your first program"):
// a matrix-vector product y(i) = sum_j A(i,j) * x(j) on 4 processes.
// A is distributed by rows (each process holds 4 of its 16 rows), x is
// replicated (every process holds all of it), y is distributed like A's
// rows. Distributing i means every process computes its own rows of y with
// no communication at all.
//
//   dist-run -np 4 --check examples/first/matvec.mlir

dist.grid @m [4]

!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> *">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> x">>

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %x = dist.alloc : !x
  %y = dist.alloc : !y
  dist.fill %a seed 1 : !A
  dist.fill %x seed 2 : !x
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !y, !A, !x
  %ok = arith.constant 0 : i32
  return %ok : i32
}
