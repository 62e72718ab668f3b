// Dot product, a = u(k) * v(k), with a BLAS leaf.
// u and v are block-distributed over a 1-D grid; each processor adds the
// dot product of its blocks (substitute({ki}, dot): one cblas_ddot call)
// into its partial sum, and the partial sums are reduced into a, which is
// replicated.

dist.grid @m [4]

!a = !dist.tensor<f64, #dist.layout<@m, " -> *">>
!u = !dist.tensor<1000xf64, #dist.layout<@m, "x -> x">>

func.func @dot(%a: !a, %u: !u, %v: !u) {
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(4)),
                communicate({a, u, v}, ko),
                substitute({ki}, dot)]
      : !a, !u, !u
  return
}

// Run it: dist-run -np N --check examples/distal/dot.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !a
  %u = dist.alloc : !u
  %v = dist.alloc : !u
  dist.fill %u seed 1 : !u
  dist.fill %v seed 2 : !u
  func.call @dot(%a, %u, %v) : (!a, !u, !u) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
