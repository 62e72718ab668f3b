// SUMMA over nodes, SUMMA within each node (DISTAL Sec. 3.3 and its Lassen
// schedules): 2x2 nodes of 1x2 CPUs, 8 ranks. Level 0 of every layout tiles
// the matrices over the nodes, level 1 tiles each node's tile over its CPUs;
// the first distribute maps i and j onto the nodes, the second onto the CPUs
// of each node (its grid dimensions follow the nodes').
//
//   dist-opt examples/distal/hierarchical/summa-nodes.mlir --dist-flatten-machines
//   DISTRT_RANKS_PER_NODE=2 dist-run -np 8 --check examples/distal/hierarchical/summa-nodes.mlir

dist.grid @h node[2, 2], cpu[1, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>
!B = !dist.tensor<64x64xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>
!C = !dist.tensor<64x64xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>

func.func @summa(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {in, jn}, {il, jl}, Grid(2, 2)),
                distribute({il, jl}, {ip, jp}, {ii, ji}, Grid(1, 2)),
                split(k, ko, ki, 16),
                reorder({ko, ii, ji, ki}),
                communicate(A, jp), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !A, !B, !C
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @summa(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
