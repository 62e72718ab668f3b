// SUMMA (examples/distal/summa.mlir) on inputs read from files, with the
// result written to a file. Every rank reads only its own tiles of B and C.
//
//   dist-run -np 4 examples/io/make-inputs.mlir           # b.dtensor, c.dtensor
//   dist-run -np 4 --check examples/io/summa-files.mlir   # reads them, writes a.dtensor
//   dist-tensor info a.dtensor
//
// A missing, truncated or mismatched input stops every rank with
// "distrt: fatal: rank R of 4: dist.load: b.dtensor: <cause>".

dist.grid @m [2, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!C = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.load %b from "b.dtensor" : !B
  dist.load %c from "c.dtensor" : !C
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16),
                reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !A, !B, !C
  dist.store %a to "a.dtensor" : !A
  %ok = arith.constant 0 : i32
  return %ok : i32
}
