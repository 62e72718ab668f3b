// A computation whose operands are stored elemental-cyclic while its
// schedule distributes blocks: without help every tensor moves with the
// general exchange; dist-insert-redistributions redistributes them to the
// blocked tiles the schedule implies (and the output back), after which
// every transfer is local. dist-to-llvm runs it by default; the tiles are no
// larger than the cyclic ones, so it costs no memory.
//
//   dist-opt --dist-insert-redistributions examples/redistribute/insert.mlir
//   dist-run -np 4 --check examples/redistribute/insert.mlir
//   dist-run -np 4 --check --insert-redistributions off examples/redistribute/insert.mlir

dist.grid @m [2, 2]
!Cyc = !dist.tensor<10x6xf64, #dist.layout<@m, "[(0),(1)]">>
!Blk = !dist.tensor<10x6xf64, #dist.layout<@m, "xy -> xy">>

func.func @main() -> i32 {
  %a = dist.alloc : !Cyc
  %b = dist.alloc : !Blk
  %c = dist.alloc : !Cyc
  dist.fill %a seed 1 : !Cyc
  dist.fill %b seed 2 : !Blk
  dist.fill %c seed 3 : !Cyc
  dist.compute "A(i,j) += B(i,j) * C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !Cyc, !Blk, !Cyc
  %ok = arith.constant 0 : i32
  return %ok : i32
}
