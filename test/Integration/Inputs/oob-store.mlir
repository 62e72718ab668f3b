// Writes one element past the end of a heap buffer (the index comes from
// the runtime, and the buffer is printed, so the store cannot be optimised
// away): only an instrumented build of the generated code notices
// (asan-generated.test).
func.func private @distrt_init()
func.func private @distrt_finalize()
func.func private @distrt_world_size() -> i64
func.func private @distrt_print_f64(!llvm.ptr, i64)

func.func @main() -> i32 {
  func.call @distrt_init() : () -> ()
  %n = func.call @distrt_world_size() : () -> i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %last = arith.addi %n, %c3 : i64
  %i = arith.index_cast %last : i64 to index
  %v = arith.constant 1.0 : f64
  %m = memref.alloc() : memref<4xf64>
  memref.store %v, %m[%i] : memref<4xf64>
  %addr = memref.extract_aligned_pointer_as_index %m : memref<4xf64> -> index
  %addr64 = arith.index_cast %addr : index to i64
  %p = llvm.inttoptr %addr64 : i64 to !llvm.ptr
  func.call @distrt_print_f64(%p, %c4) : (!llvm.ptr, i64) -> ()
  memref.dealloc %m : memref<4xf64>
  func.call @distrt_finalize() : () -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
