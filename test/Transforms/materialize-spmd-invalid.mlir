// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -verify-diagnostics
// Schedules the lowering cannot handle are rejected with the loop or
// tensor and the reason.

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule cannot be lowered: loop 'jo' is distributed but sits inside loop 'ii'; distributed loops must be the outermost loops}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii, 2), divide(j, jo, ji, 2),
                distribute(io), distribute(jo)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule cannot be lowered: distributed loop 'io' has 4 iterations but grid dimension 0 of @m has extent 2}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(4, 1))] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
dist.grid @l [4]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!R = !dist.tensor<8x8xf64, #dist.layout<@l, "xy -> x">>
func.func @f(%a: !T, %b: !R, %c: !T) {
  // expected-error @+1 {{cannot be lowered: tensor 'B' lives on @l but 'A' on @m; redistribute it onto one machine first}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !T, !R, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule cannot be lowered: no loop is distributed, so every processor of @m would compute everything}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c) : !T, !T, !T
  return
}

// -----

dist.grid @h node[2], cpu[2]
!T = !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> x*", "xy -> y*">>
// expected-error @+1 {{has a hierarchical layout; dist-materialize-spmd lowers single-level layouts only}}
func.func @f(%a: !T) {
  dist.fill %a seed 1 : !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
// expected-error @+1 {{functions cannot return distributed tensors}}
func.func @f(%a: !T) -> !T {
  return %a : !T
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule cannot be lowered: parallelize(k): 'k' is summed over, so parallel iterations would add into the same output elements}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                parallelize(k)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule cannot be lowered: parallelize(ii): tensor 'B' is communicated inside it}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                parallelize(ii), communicate(B, k)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule cannot be lowered: parallelize(ko) encloses the gemm leaf}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 2), reorder({ko, ii, ji, ki}),
                parallelize(ko), substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

// A substitute that cannot apply is an error, not scalar loops in silence.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xi32, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-remark @+2 {{tensor 'B' moves with the general exchange: the boxes it needs fit no collective}}
  // expected-error @+1 {{substitute(..., gemm) cannot apply: the element type is not f32 or f64; change the schedule or the layouts, remove the substitute command, or ask for scalar loops in its place with the pass option leaf-fallback (dist-run --leaf-fallback)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                substitute({ii, ji, k}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-remark @+3 {{tensor 'A' moves with the general exchange: its partial results fit no reduction}}
  // expected-remark @+2 {{tensor 'B' moves with the general exchange}}
  // expected-error @+1 {{substitute(..., gemm) cannot apply: the output A's last index is not the column index 'j'}}
  dist.compute "A(j,i) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                substitute({ii, ji, k}, gemm)] : !T, !T, !T
  return
}
