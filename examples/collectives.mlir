// Every communication op of the SPMD form on a 2x2 grid, lowered by
// convert-dist-to-runtime to distrt calls and run under MPI. Each rank
// prints, in order: broadcast, allreduce, allgather, reduce_scatter, shift,
// all_to_all and the point-to-point message (42 on rank 3, -1 elsewhere).
//
//   dist-run -np 4 examples/collectives.mlir

module {
  dist.grid @m [2, 2]

  func.func private @distrt_init()
  func.func private @distrt_finalize()
  func.func private @distrt_grid_rank(!llvm.ptr) -> i64
  func.func private @distrt_grid_coord(!llvm.ptr, i64) -> i64
  func.func private @distrt_print_i64(!llvm.ptr, i64)

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c10 = arith.constant 10 : index
    %i0 = arith.constant 0 : i64
    %i1 = arith.constant 1 : i64
    %i10 = arith.constant 10 : i64
    %i42 = arith.constant 42 : i64
    %im1 = arith.constant -1 : i64

    func.call @distrt_init() : () -> ()
    %g = dist.grid_handle @m : !llvm.ptr
    %r = func.call @distrt_grid_rank(%g) : (!llvm.ptr) -> i64

    // broadcast over axis 1 from the group's member 0: rank 2x everywhere in row x
    %b = memref.alloc() : memref<2xi64>
    memref.store %r, %b[%c0] : memref<2xi64>
    memref.store %r, %b[%c1] : memref<2xi64>
    dist.broadcast %b on @m axes [1] root %c0 : memref<2xi64>

    // allreduce over the whole grid: (0+1+2+3, 4)
    %a = memref.alloc() : memref<2xi64>
    memref.store %r, %a[%c0] : memref<2xi64>
    memref.store %i1, %a[%c1] : memref<2xi64>
    dist.allreduce %a on @m axes [0, 1] sum : memref<2xi64>

    // allgather over axis 0: the ranks of my grid column
    %gi = memref.alloc() : memref<1xi64>
    %go = memref.alloc() : memref<2xi64>
    memref.store %r, %gi[%c0] : memref<1xi64>
    dist.allgather %gi into %go on @m axes [0] : memref<1xi64> into memref<2xi64>

    // reduce_scatter over axis 1 of (r, 10 r)
    %si = memref.alloc() : memref<2xi64>
    %so = memref.alloc() : memref<1xi64>
    %r10 = arith.muli %r, %i10 : i64
    memref.store %r, %si[%c0] : memref<2xi64>
    memref.store %r10, %si[%c1] : memref<2xi64>
    dist.reduce_scatter %si into %so on @m axes [1] sum : memref<2xi64> into memref<1xi64>

    // shift along axis 1 by 1: the rank of my right neighbour (periodic)
    %sh = memref.alloc() : memref<1xi64>
    memref.store %r, %sh[%c0] : memref<1xi64>
    dist.shift %sh on @m axis 1 offset 1 : memref<1xi64>

    // all_to_all over axis 1 of (10 r, 10 r + 1)
    %ti = memref.alloc() : memref<2xi64>
    %to = memref.alloc() : memref<2xi64>
    %r10p1 = arith.addi %r10, %i1 : i64
    memref.store %r10, %ti[%c0] : memref<2xi64>
    memref.store %r10p1, %ti[%c1] : memref<2xi64>
    dist.all_to_all %ti into %to on @m axes [1] : memref<2xi64> into memref<2xi64>

    // rank 0 sends 42 to rank 3
    %p = memref.alloc() : memref<1xi64>
    memref.store %im1, %p[%c0] : memref<1xi64>
    %is0 = arith.cmpi eq, %r, %i0 : i64
    %r3 = arith.constant 3 : i64
    %is3 = arith.cmpi eq, %r, %r3 : i64
    scf.if %is0 {
      %q = memref.alloc() : memref<1xi64>
      memref.store %i42, %q[%c0] : memref<1xi64>
      dist.send %q to %c3 on @m tag 5 : memref<1xi64>
      memref.dealloc %q : memref<1xi64>
    }
    scf.if %is3 {
      dist.recv %p from %c0 on @m tag 5 : memref<1xi64>
    }

    // Collect and print.
    %out = memref.alloc() : memref<11xi64>
    %v0 = memref.load %b[%c0] : memref<2xi64>
    %v1 = memref.load %b[%c1] : memref<2xi64>
    %v2 = memref.load %a[%c0] : memref<2xi64>
    %v3 = memref.load %a[%c1] : memref<2xi64>
    %v4 = memref.load %go[%c0] : memref<2xi64>
    %v5 = memref.load %go[%c1] : memref<2xi64>
    %v6 = memref.load %so[%c0] : memref<1xi64>
    %v7 = memref.load %sh[%c0] : memref<1xi64>
    %v8 = memref.load %to[%c0] : memref<2xi64>
    %v9 = memref.load %to[%c1] : memref<2xi64>
    %v10 = memref.load %p[%c0] : memref<1xi64>
    memref.store %v0, %out[%c0] : memref<11xi64>
    memref.store %v1, %out[%c1] : memref<11xi64>
    memref.store %v2, %out[%c2] : memref<11xi64>
    memref.store %v3, %out[%c3] : memref<11xi64>
    memref.store %v4, %out[%c4] : memref<11xi64>
    memref.store %v5, %out[%c5] : memref<11xi64>
    memref.store %v6, %out[%c6] : memref<11xi64>
    memref.store %v7, %out[%c7] : memref<11xi64>
    memref.store %v8, %out[%c8] : memref<11xi64>
    memref.store %v9, %out[%c9] : memref<11xi64>
    memref.store %v10, %out[%c10] : memref<11xi64>
    %addr = memref.extract_aligned_pointer_as_index %out : memref<11xi64> -> index
    %addr64 = arith.index_cast %addr : index to i64
    %ptr = llvm.inttoptr %addr64 : i64 to !llvm.ptr
    %n = arith.constant 11 : i64
    func.call @distrt_print_i64(%ptr, %n) : (!llvm.ptr, i64) -> ()
    memref.dealloc %b : memref<2xi64>
    memref.dealloc %a : memref<2xi64>
    memref.dealloc %gi : memref<1xi64>
    memref.dealloc %go : memref<2xi64>
    memref.dealloc %si : memref<2xi64>
    memref.dealloc %so : memref<1xi64>
    memref.dealloc %sh : memref<1xi64>
    memref.dealloc %ti : memref<2xi64>
    memref.dealloc %to : memref<2xi64>
    memref.dealloc %p : memref<1xi64>
    memref.dealloc %out : memref<11xi64>
    func.call @distrt_finalize() : () -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
