// A program built for a fixed 2x2 machine. The grid is declared with
// dist.grid and its run-time handle obtained with dist.grid_handle; started
// on any other number of ranks it stops at once with a message naming both
// numbers. Each rank sums its grid rank over its grid column (axis 0).
//
//   dist-run -np 4 examples/grid2x2.mlir

module {
  dist.grid @m [2, 2]

  func.func private @distrt_init()
  func.func private @distrt_finalize()
  func.func private @distrt_grid_rank(!llvm.ptr) -> i64
  func.func private @distrt_allreduce(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64)
  func.func private @distrt_print_i64(!llvm.ptr, i64)

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c3 = arith.constant 3 : i64
    %i0 = arith.constant 0 : index
    func.call @distrt_init() : () -> ()
    %g = dist.grid_handle @m : !llvm.ptr
    %r = func.call @distrt_grid_rank(%g) : (!llvm.ptr) -> i64
    %buf = memref.alloca() : memref<1xi64>
    memref.store %r, %buf[%i0] : memref<1xi64>
    %addr = memref.extract_aligned_pointer_as_index %buf : memref<1xi64> -> index
    %addr64 = arith.index_cast %addr : index to i64
    %ptr = llvm.inttoptr %addr64 : i64 to !llvm.ptr
    // Sum over axis 0 (mask 0b01): column c holds ranks c and c + 2.
    func.call @distrt_allreduce(%g, %c1, %ptr, %c1, %c3, %c0)
        : (!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> ()
    func.call @distrt_print_i64(%ptr, %c1) : (!llvm.ptr, i64) -> ()
    func.call @distrt_finalize() : () -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
