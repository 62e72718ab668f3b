// DISTAL Sec. 7.2: inner product, a = B(i,j,k) * C(i,j,k).
// Each processor reduces its own tiles of B and C (a node-level reduction),
// then the partial sums are reduced over the whole grid into a, which is
// replicated. (parallelize(ii) would make threads add into the same scalar;
// the lowering rejects that.)

dist.grid @m [2, 2]

!a = !dist.tensor<f64, #dist.layout<@m, " -> **">>
!B = !dist.tensor<32x32x32xf64, #dist.layout<@m, "xyz -> xy">>

func.func @innerprod(%a: !a, %b: !B, %c: !B) {
  dist.compute "a = B(i,j,k) * C(i,j,k)" (a = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({a, B, C}, jo)]
      : !a, !B, !B
  return
}

// Run it: dist-run -np N --check examples/distal/innerprod.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !a
  %b = dist.alloc : !B
  %c = dist.alloc : !B
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !B
  func.call @innerprod(%a, %b, %c) : (!a, !B, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
