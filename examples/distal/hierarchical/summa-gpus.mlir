// SUMMA over nodes of GPUs, SUMMA within each node (DISTAL Sec. 3.3 and its
// Lassen runs, whose nodes hold 4 GPUs): 2x2 nodes of 1x2 GPUs, 8 ranks, one
// per GPU. summa-nodes.mlir on a machine of GPUs: the same layouts and
// schedule; dist-flatten-machines makes it the grid gpu[2, 2, 1, 2] with 2
// node axes, dist-to-llvm (device=auto) puts every tile in device memory,
// the GEMM leaf runs on cuBLAS and every transfer goes through NCCL; dist-run
// picks the NCCL backend for it (docs/gpu.md, "Machines of GPUs").
//
//   DISTRT_RANKS_PER_NODE=2 dist-run -np 8 --check examples/distal/hierarchical/summa-gpus.mlir
//   # without GPUs, on the test-only host emulation (docs/gpu.md):
//   DISTRT_RANKS_PER_NODE=2 DISTRT_NCCL_PLUGIN=build/lib/libdistrt_nccl_emu.so GPUEMU_DEVICES=8 \
//     dist-run -np 8 --check --mpirun-args "-x GPUEMU_DEVICES -x DISTRT_RANKS_PER_NODE" \
//     examples/distal/hierarchical/summa-gpus.mlir

dist.grid @h node[2, 2], gpu[1, 2]

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
