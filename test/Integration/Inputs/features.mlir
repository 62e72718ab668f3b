// Parsed and documented features, each run and checked: i64 and f32
// computations, unary minus, constants, subtraction, collapse and fuse
// (lowered as one loop), scalar outputs, `+=`.

dist.grid @m [2, 2]

!M = !dist.tensor<6x5xi64, #dist.layout<@m, "xy -> xy">>
!N = !dist.tensor<5x4xi64, #dist.layout<@m, "xy -> x*">>
!O = !dist.tensor<6x4xi64, #dist.layout<@m, "xy -> xy">>
!F = !dist.tensor<7x9xf32, #dist.layout<@m, "xy -> xy" cyclic>>
!G = !dist.tensor<7x9xf32, #dist.layout<@m, "xy -> *y">>
!S = !dist.tensor<f32, #dist.layout<@m, "-> *">>

func.func @main() -> i32 {
  %a = dist.alloc : !O
  %b = dist.alloc : !M
  %c = dist.alloc : !N
  %f = dist.alloc : !F
  %g = dist.alloc : !G
  %h = dist.alloc : !F
  %s = dist.alloc : !S
  %d = dist.alloc : !O
  dist.fill %d seed 5 : !O
  dist.fill %b seed 1 : !M
  dist.fill %c seed 2 : !N
  dist.fill %f seed 3 : !F
  dist.fill %g seed 4 : !G
  // i64 matrix product with a constant and a subtraction, i and j
  // collapsed into one loop after distribution.
  dist.compute "A(i,j) = 3 * B(i,k) * C(k,j) - D(i,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                collapse(ii, ji, f)] : !O, !M, !N, !O
  // f32 element-wise with unary minus, fused loops.
  dist.compute "H(i,j) = -F(i,j) * 0.5 + G(i,j)" (H = %h, F = %f, G = %g)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                fuse(ii, ji, f)] : !F, !F, !G
  // += on an i64 tensor.
  dist.compute "A(i,j) += -B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !O, !M, !N
  // f32 scalar: a sum over both indices, distributed (an allreduce).
  dist.compute "s = F(i,j) * G(i,j) - 1" (s = %s, F = %f, G = %g)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !S, !F, !G
  %ok = arith.constant 0 : i32
  return %ok : i32
}
