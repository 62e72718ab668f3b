// Summed indices sum over the smallest sub-expression that holds all their
// uses; an addition never sums (docs/dialect.md#summed-indices). Inputs are
// constants, so every expected value below is worked out by hand in
// sum-scope.test. Row-distributed on 2 ranks, with k distributed too in
// the last computation (its partial sums are reduced over the grid).

dist.grid @m [2]

!V = !dist.tensor<6xf64, #dist.layout<@m, "x -> x">>
!M = !dist.tensor<6x4xf64, #dist.layout<@m, "xy -> x">>
!K = !dist.tensor<4xf64, #dist.layout<@m, "x -> *">>
!I = !dist.tensor<6xi32, #dist.layout<@m, "x -> x">>
!MI = !dist.tensor<6x4xi32, #dist.layout<@m, "xy -> y">>
!S = !dist.tensor<f64, #dist.layout<@m, "-> *">>

func.func @main() -> i32 {
  %b = dist.alloc : !M
  %c = dist.alloc : !K
  %d = dist.alloc : !V
  %a1 = dist.alloc : !V
  %a2 = dist.alloc : !V
  %a3 = dist.alloc : !V
  %a4 = dist.alloc : !V
  %s = dist.alloc : !S
  %bi = dist.alloc : !MI
  %di = dist.alloc : !I
  %ai = dist.alloc : !I
  dist.compute "B(i,k) = 1" (B = %b) schedule [distribute({i}, {io}, {ii}, Grid(2))] : !M
  dist.compute "C(k) = 2" (C = %c) schedule [distribute({k}, {ko}, {ki}, Grid(2))] : !K
  dist.compute "D(i) = 3" (D = %d) schedule [distribute({i}, {io}, {ii}, Grid(2))] : !V
  dist.compute "B(i,k) = 5" (B = %bi) schedule [distribute({k}, {ko}, {ki}, Grid(2)), reorder({ko, i, ki})] : !MI
  dist.compute "D(i) = 7" (D = %di) schedule [distribute({i}, {io}, {ii}, Grid(2))] : !I
  // sum_k B(i,k) * C(k) + D(i) = 4 * 1 * 2 + 3 = 11 (not 4 * 2 + 4 * 3 = 20)
  dist.compute "A(i) = B(i,k) * C(k) + D(i)" (A = %a1, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !V, !M, !K, !V
  // sum_k B(i,k) + D(i) + sum_k B(i,k) * C(k) = 4 + 3 + 8 = 15
  dist.compute "A(i) = B(i,k) + D(i) + B(i,k) * C(k)" (A = %a2, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !V, !M, !K, !V
  // D(i) * (sum_k C(k) - 1) = 3 * (8 - 1) = 21: k is summed inside the
  // parentheses, the constant is not repeated
  dist.compute "A(i) = D(i) * (C(k) - 1)" (A = %a3, D = %d, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !V, !V, !K
  // (D(i) + 1) * sum_k C(k) = 4 * 8 = 32: k is summed inside the factor
  // that uses it, the other factor's constant is not guarded
  dist.compute "A(i) = (D(i) + 1) * C(k)" (A = %a4, D = %d, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !V, !V, !K
  // sum_i D(i) + 2 = 6 * 3 + 2 = 20
  dist.compute "s = D(i) + 2" (s = %s, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !S, !V
  // i32, k distributed (a reduction over the grid):
  // sum_k B(i,k) - D(i) = 4 * 5 - 7 = 13
  dist.compute "A(i) = B(i,k) - D(i)" (A = %ai, B = %bi, D = %di)
      schedule [distribute({k}, {ko}, {ki}, Grid(2)), reorder({ko, i, ki})]
      : !I, !MI, !I
  dist.store %a1 to "a1.dtensor" : !V
  dist.store %a2 to "a2.dtensor" : !V
  dist.store %a3 to "a3.dtensor" : !V
  dist.store %a4 to "a4.dtensor" : !V
  dist.store %s to "s.dtensor" : !S
  dist.store %ai to "ai.dtensor" : !I
  %ok = arith.constant 0 : i32
  return %ok : i32
}
