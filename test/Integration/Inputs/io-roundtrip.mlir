// Loads in64.dtensor (10x7 f64), in32.dtensor (10x7 f32), ini.dtensor
// (5x3x4 i32), sc.dtensor (a replicated f64 scalar) and wide.dtensor
// (6x301 f64: blocks of 64 elements or more in the last dimension, read in
// place rather than through a row span) into tensors of many layouts and
// stores each one back; the test compares every output with its input byte
// for byte. Uneven extents, cyclic, block-cyclic, replicated and fixed
// layouts.

dist.grid @m [2, 2]

!Blk = !dist.tensor<10x7xf64, #dist.layout<@m, "xy -> xy">>
!Cyc = !dist.tensor<10x7xf64, #dist.layout<@m, "[(1),(0)]">>
!BC  = !dist.tensor<10x7xf64, #dist.layout<@m, "xy -> yx" block_cyclic(2)>>
!Rep = !dist.tensor<10x7xf64, #dist.layout<@m, [(0) blocked, ()]>>
!Fix = !dist.tensor<10x7xf64, #dist.layout<@m, [(), (0) blocked] | (1 = 1)>>
!All = !dist.tensor<10x7xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>
!F32 = !dist.tensor<10x7xf32, #dist.layout<@m, "[(0),(1)]">>
!I3  = !dist.tensor<5x3x4xi32, #dist.layout<@m, [(1) blocked, (), (0)]>>
!W1  = !dist.tensor<6x301xf64, #dist.layout<@m, "xy -> xy">>
!W2  = !dist.tensor<6x301xf64, #dist.layout<@m, "xy -> yx" block_cyclic(70)>>
!Sc  = !dist.tensor<f64, #dist.layout<@m, " -> **">>

func.func @main() -> i32 {
  %blk = dist.alloc : !Blk
  dist.load %blk from "in64.dtensor" : !Blk
  dist.store %blk to "out-blk.dtensor" : !Blk
  %cyc = dist.alloc : !Cyc
  dist.load %cyc from "in64.dtensor" : !Cyc
  dist.store %cyc to "out-cyc.dtensor" : !Cyc
  %bc = dist.alloc : !BC
  dist.load %bc from "in64.dtensor" : !BC
  dist.store %bc to "out-bc.dtensor" : !BC
  %rep = dist.alloc : !Rep
  dist.load %rep from "in64.dtensor" : !Rep
  dist.store %rep to "out-rep.dtensor" : !Rep
  %fix = dist.alloc : !Fix
  dist.load %fix from "in64.dtensor" : !Fix
  dist.store %fix to "out-fix.dtensor" : !Fix
  %all = dist.alloc : !All
  dist.load %all from "in64.dtensor" : !All
  dist.store %all to "out-all.dtensor" : !All
  %f = dist.alloc : !F32
  dist.load %f from "in32.dtensor" : !F32
  dist.store %f to "out-f32.dtensor" : !F32
  %i = dist.alloc : !I3
  dist.load %i from "ini.dtensor" : !I3
  dist.store %i to "out-i32.dtensor" : !I3
  %w1 = dist.alloc : !W1
  dist.load %w1 from "wide.dtensor" : !W1
  dist.store %w1 to "out-w1.dtensor" : !W1
  %w2 = dist.alloc : !W2
  dist.load %w2 from "wide.dtensor" : !W2
  dist.store %w2 to "out-w2.dtensor" : !W2
  %sc = dist.alloc : !Sc
  dist.load %sc from "sc.dtensor" : !Sc
  dist.store %sc to "out-sc.dtensor" : !Sc
  %ok = arith.constant 0 : i32
  return %ok : i32
}
