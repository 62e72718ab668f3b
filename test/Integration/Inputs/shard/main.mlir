// The driver of kernels.mlir after dist-import-shard (appended to its
// output by test/Integration/shard-import.test): loads the inputs that
// check.py made, calls each imported function (tensor results are the
// last arguments) and stores the results for check.py. 4 processes.

!T2a = !dist.tensor<64x48xf64, #dist.layout<@tiles, [(0) blocked, (1) blocked]>>
!T2b = !dist.tensor<48x40xf64, #dist.layout<@tiles, [(0) blocked, (1) blocked]>>
!T2c = !dist.tensor<64x40xf64, #dist.layout<@tiles, [(0) blocked, (1) blocked]>>
!Rows = !dist.tensor<250x250xf64, #dist.layout<@line, [(0) blocked, ()]>>
!Repl = !dist.tensor<250x250xf64, #dist.layout<@line, [(), ()]>>
!V250 = !dist.tensor<250xf32, #dist.layout<@line, [(0) blocked]>>
!Mi = !dist.tensor<30x20xi64, #dist.layout<@tiles, [(0) blocked, (1) blocked]>>
!Vi = !dist.tensor<20xi64, #dist.layout<@tiles, [()]>>
!Yi = !dist.tensor<30xi64, #dist.layout<@tiles, [(0) blocked]>>
!X = !dist.tensor<12x10xf64, #dist.layout<@tiles, [(1, 0) blocked, ()]>>
!X2 = !dist.tensor<12x10xf64, #dist.layout<@tiles, [(1) blocked, (0) blocked]>>
!Y = !dist.tensor<10x12xf64, #dist.layout<@tiles, [(1, 0) blocked, ()]>>

func.func @main() -> i32 {
  %a = dist.alloc : !T2a
  %b = dist.alloc : !T2b
  %c = dist.alloc : !T2c
  dist.load %a from "a64x48.npy" : !T2a
  dist.load %b from "b48x40.npy" : !T2b
  func.call @matmul_tiles(%a, %b, %c) : (!T2a, !T2b, !T2c) -> ()
  dist.store %c to "out-matmul-tiles.npy" : !T2c

  %ra = dist.alloc : !Rows
  %rb = dist.alloc : !Repl
  %rc = dist.alloc : !Rows
  %rd = dist.alloc : !Rows
  dist.load %ra from "a250.npy" : !Rows
  dist.load %rb from "b250.npy" : !Repl
  dist.load %rc from "c250.npy" : !Rows
  func.call @matmul_rows_250(%ra, %rb, %rc, %rd) : (!Rows, !Repl, !Rows, !Rows) -> ()
  dist.store %rd to "out-matmul-250.npy" : !Rows

  %x = dist.alloc : !V250
  %w = dist.alloc : !V250
  %y = dist.alloc : !V250
  dist.load %x from "x250.npy" : !V250
  dist.load %w from "w250.npy" : !V250
  func.call @elementwise_250(%x, %w, %y) : (!V250, !V250, !V250) -> ()
  dist.store %y to "out-elementwise-250.npy" : !V250

  %m = dist.alloc : !Mi
  %v = dist.alloc : !Vi
  %y0 = dist.alloc : !Yi
  %yo = dist.alloc : !Yi
  dist.load %m from "m30x20.npy" : !Mi
  dist.load %v from "v20.npy" : !Vi
  dist.load %y0 from "y30.npy" : !Yi
  func.call @matvec_i64(%m, %v, %y0, %yo) : (!Mi, !Vi, !Yi, !Yi) -> ()
  dist.store %yo to "out-matvec-i64.npy" : !Yi

  %xm = dist.alloc : !X
  %x2 = dist.alloc : !X2
  %xt = dist.alloc : !Y
  dist.load %xm from "x12x10.npy" : !X
  func.call @multi_axis(%xm, %x2, %xt) : (!X, !X2, !Y) -> ()
  dist.store %x2 to "out-multi-axis-x.npy" : !X2
  dist.store %xt to "out-multi-axis-t.npy" : !Y

  %ok = arith.constant 0 : i32
  return %ok : i32
}
