// dist smoke program: the end-to-end check of the toolchain.
//
// Every rank joins a 2-D grid (1x1, 1x2 or 2x2 on 1, 2 or 4 ranks; p0 x 2 on
// any even count), contributes (its grid coordinates, its rank, 1) to an
// allreduce over grid axis 1 -- the processes of its grid row -- and prints
// the row sums. On 4 ranks row 0 prints "0 1 1 2" and row 1 "2 1 5 2".
//
//   dist-run -np 4 examples/smoke.mlir

module {
  func.func private @distrt_init()
  func.func private @distrt_finalize()
  func.func private @distrt_world_size() -> i64
  func.func private @distrt_grid_create2(i64, i64) -> !llvm.ptr
  func.func private @distrt_grid_rank(!llvm.ptr) -> i64
  func.func private @distrt_grid_coord(!llvm.ptr, i64) -> i64
  func.func private @distrt_allreduce(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64)
  func.func private @distrt_print_i64(!llvm.ptr, i64)

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %c3 = arith.constant 3 : i64
    %c4 = arith.constant 4 : i64
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %i3 = arith.constant 3 : index

    func.call @distrt_init() : () -> ()
    // Grid shape: (n / 2) x 2 on an even number of ranks, 1 x n otherwise.
    %n = func.call @distrt_world_size() : () -> i64
    %rem = arith.remsi %n, %c2 : i64
    %even = arith.cmpi eq, %rem, %c0 : i64
    %p1 = arith.select %even, %c2, %n : i64
    %p0 = arith.divsi %n, %p1 : i64
    %g = func.call @distrt_grid_create2(%p0, %p1) : (i64, i64) -> !llvm.ptr

    %x = func.call @distrt_grid_coord(%g, %c0) : (!llvm.ptr, i64) -> i64
    %y = func.call @distrt_grid_coord(%g, %c1) : (!llvm.ptr, i64) -> i64
    %r = func.call @distrt_grid_rank(%g) : (!llvm.ptr) -> i64

    %buf = memref.alloca() : memref<4xi64>
    memref.store %x, %buf[%i0] : memref<4xi64>
    memref.store %y, %buf[%i1] : memref<4xi64>
    memref.store %r, %buf[%i2] : memref<4xi64>
    memref.store %c1, %buf[%i3] : memref<4xi64>
    %addr = memref.extract_aligned_pointer_as_index %buf : memref<4xi64> -> index
    %addr64 = arith.index_cast %addr : index to i64
    %ptr = llvm.inttoptr %addr64 : i64 to !llvm.ptr

    // Sum (DISTRT_SUM = 0) of 4 i64 (DISTRT_I64 = 3) over axis 1 (mask 0b10).
    func.call @distrt_allreduce(%g, %c2, %ptr, %c4, %c3, %c0)
        : (!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> ()
    func.call @distrt_print_i64(%ptr, %c4) : (!llvm.ptr, i64) -> ()

    func.call @distrt_finalize() : () -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
