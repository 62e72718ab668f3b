// The distributed kernel of the leak soak test (soak.test): every call
// allocates its tensors, fills two, multiplies them with SUMMA (broadcasts
// on cached sub-communicators and a GEMM), redistributes the product to a
// cyclic layout (one all-to-all-v), reduces an inner product (allreduce),
// and stores and loads a tensor file; every buffer is freed on return.
// Grid 1x2: two ranks.

dist.grid @m [1, 2]

!T = !dist.tensor<16x16xf64, #dist.layout<@m, "xy -> xy">>
!Cyc = !dist.tensor<16x16xf64, #dist.layout<@m, "[(1),(0)]">>
!s = !dist.tensor<f64, #dist.layout<@m, " -> **">>

func.func @kernel() {
  %a = dist.alloc : !T
  %b = dist.alloc : !T
  %c = dist.alloc : !T
  dist.fill %b seed 1 : !T
  dist.fill %c seed 2 : !T
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(1, 2)),
                split(k, ko, ki, 8), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !T, !T, !T
  %r = dist.alloc : !Cyc
  dist.redistribute %a into %r : !T into !Cyc
  %d = dist.alloc : !s
  dist.compute "d = A(i,j) * B(i,j)" (d = %d, A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(1, 2)),
                communicate({d, A, B}, jo)]
      : !s, !T, !T
  dist.store %r to "soak.dtensor" : !Cyc
  dist.load %c from "soak.dtensor" : !T
  return
}
