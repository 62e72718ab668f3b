// Your first program, part 3 (docs/tutorial.md, "Your first program"):
// the matrix-vector product on your own data. A (4x3) and x (3) are read
// from tensor files made from CSV text with dist-tensor from-csv; the
// result y (4) is written to y.dtensor, which dist-tensor print shows.
// Paths are relative to the directory the program runs in.
//
//   printf '1,2,3\n4,5,6\n7,8,9\n10,11,12\n' > a.csv
//   printf '1\n1\n1\n' > x.csv
//   dist-tensor from-csv a.dtensor f64 4x3 a.csv
//   dist-tensor from-csv x.dtensor f64 3 x.csv
//   dist-run -np 4 --check examples/first/from-csv.mlir
//   dist-tensor print y.dtensor          # f64 4 / 6 15 24 33

dist.grid @m [4]

!A = !dist.tensor<4x3xf64, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<3xf64, #dist.layout<@m, "x -> *">>
!y = !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %x = dist.alloc : !x
  %y = dist.alloc : !y
  dist.load %a from "a.dtensor" : !A
  dist.load %x from "x.dtensor" : !x
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !y, !A, !x
  dist.store %y to "y.dtensor" : !y
  %ok = arith.constant 0 : i32
  return %ok : i32
}
