// Tensor times vector on two levels over GPUs, A(i,j) = B(i,j,k) * c(k)
// (DISTAL Sec. 7.2): i over 2x2 nodes' first axis and j over their second,
// then each node's rows over its 2 GPUs; c replicated everywhere. 8 ranks,
// one per GPU. ttv-nodes.mlir with a cuBLAS leaf: substitute({jl, k}, gemv)
// makes one gemv per step of ii (the matrix B(ii, :, :), rows K apart, times
// c into A(ii, :)), since a loop leaf would be host code over device tiles.
//
//   DISTRT_RANKS_PER_NODE=2 dist-run -np 8 --check examples/distal/hierarchical/ttv-gpus.mlir
//   (without GPUs: the emulation, as in summa-gpus.mlir)

dist.grid @h node[2, 2], gpu[2]

!A = !dist.tensor<32x32xf64, #dist.layout<@h, "xy -> xy", "xy -> x">>
!B = !dist.tensor<32x32x16xf64, #dist.layout<@h, "xyz -> xy", "xyz -> x">>
!c = !dist.tensor<16xf64, #dist.layout<@h, "z -> **", "z -> *">>

func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {in, jn}, {il, jl}, Grid(2, 2)),
                distribute({il}, {ip}, {ii}, Grid(2)),
                communicate({A, B, c}, ip),
                substitute({jl, k}, gemv)]
      : !A, !B, !c
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !c
  func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
