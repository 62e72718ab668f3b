//===- DistKernelOps.td - SPMD kernels, tiles, checks ------*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Included by DistOps.td. The SPMD ops of the runtime's lifetime, the local
// tiles of distributed tensors, leaf kernels, redistribution steps and the
// check and timing instrumentation: what dist-materialize-spmd emits and
// convert-dist-to-runtime lowers to distrt calls
// (lib/Conversion/DistToRuntime/KernelToRuntime.cpp). Verifiers live in
// lib/Dialect/Dist/IR/KernelOps.cpp.
//
// A tile is the flat, contiguous local storage of a distributed tensor on
// one process (a memref with the identity layout); ops on tiles name the
// tensor's type (`of !dist.tensor<...>`), whose layout and grid the runtime
// reads through a layout descriptor built by the conversion.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_KERNEL_OPS_TD
#define DIST_KERNEL_OPS_TD

// An op calling into the runtime with effects beyond its operands (the
// network, files, the process's runtime state, the clock): it reads and
// writes the communication resource, so no rewrite removes, duplicates or
// reorders it with respect to communication.
class Dist_RuntimeOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [
        MemoryEffects<[MemRead<Dist_CommResource>,
                       MemWrite<Dist_CommResource>]>])>;

// An op whose only effects beyond its operands are reads of the runtime's
// state (grids): removable when unused, not moved across communication.
class Dist_RuntimeQueryOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [
        MemoryEffects<[MemRead<Dist_CommResource>]>])>;

def Dist_DistTensorTypeAttr : TypeAttrOf<Dist_StaticTensorType>;

//===----------------------------------------------------------------------===//
// The runtime's lifetime
//===----------------------------------------------------------------------===//

def Dist_RuntimeInitOp : Dist_RuntimeOp<"runtime_init"> {
  let summary = "starts the runtime (idempotent)";
  let description = [{
    Starts the `distrt` runtime (and MPI) if it has not been started; every
    function that uses distributed tensors begins with it. Lowers to
    `distrt_init`.

    ```mlir
    dist.runtime_init
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Dist_RuntimeFinalizeOp : Dist_RuntimeOp<"runtime_finalize"> {
  let summary = "ends the runtime";
  let description = [{
    Ends the runtime (and MPI) after waiting for every rank; `@main` ends
    with it when the program uses distributed tensors. Lowers to
    `distrt_finalize`.

    ```mlir
    dist.runtime_finalize
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Local tiles
//===----------------------------------------------------------------------===//

def Dist_TileCapacityOp : Dist_RuntimeQueryOp<"tile_capacity", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "elements of the largest local tile of a distributed tensor";
  let description = [{
    The number of elements of the largest tile any process of the grid
    holds of a tensor of type `tensor` (at least 1), so that one tile size
    fits every process. Lowers to `distrt_layout_tile_capacity` with the
    grid of the tensor's layout and its layout descriptor.

    ```mlir
    %n = dist.tile_capacity !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Dist_DistTensorTypeAttr:$tensor);
  let results = (outs Index:$capacity);
  let assemblyFormat = "$tensor attr-dict";
  let hasVerifier = 1;
}

def Dist_CheckAllocOp : Dist_RuntimeOp<"check_alloc"> {
  let summary = "stops the program when an allocation failed";
  let description = [{
    Stops every rank with a message naming `what` and the buffer's size in
    bytes when `buffer` (just allocated) is null and that size is positive.
    Lowers to `distrt_check_alloc`.

    ```mlir
    %t = memref.alloc(%n) : memref<?xf64>
    dist.check_alloc %t, "the local tile of a distributed tensor" : memref<?xf64>
    ```
  }];
  let arguments = (ins AnyMemRef:$buffer, StrAttr:$what);
  let assemblyFormat = "$buffer `,` $what attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Dist_FillTileOp : Dist_RuntimeQueryOp<"fill_tile", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "fills a local tile with deterministic values";
  let description = [{
    Gives every element of this process's tile of a tensor of type `tensor`
    the value `dist.fill` documents for its global index and `seed`. Lowers
    to `distrt_layout_fill`.

    ```mlir
    dist.fill_tile %tile seed 1 : memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemWrite]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor,
                       I64Attr:$seed);
  let assemblyFormat =
      "$tile `seed` $seed attr-dict `:` type($tile) `of` $tensor";
  let hasVerifier = 1;
}

def Dist_LoadTileOp : Dist_RuntimeOp<"load_tile", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "reads a local tile from a tensor file";
  let description = [{
    Every process reads its tile of a tensor of type `tensor` from the
    dist tensor file at `path` (see `dist.load`, whose checks apply).
    Lowers to `distrt_layout_load`.

    ```mlir
    dist.load_tile %tile from "b.dtensor" : memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemWrite]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor,
                       StrAttr:$path);
  let assemblyFormat =
      "$tile `from` $path attr-dict `:` type($tile) `of` $tensor";
  let hasVerifier = 1;
}

def Dist_StoreTileOp : Dist_RuntimeOp<"store_tile", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "writes the local tiles to a tensor file";
  let description = [{
    The processes write the tensor of type `tensor` whose tiles they hold
    to the dist tensor file at `path`, each element once (see `dist.store`).
    Lowers to `distrt_layout_store`.

    ```mlir
    dist.store_tile %tile to "c.dtensor" : memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor,
                       StrAttr:$path);
  let assemblyFormat =
      "$tile `to` $path attr-dict `:` type($tile) `of` $tensor";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Leaf kernels
//===----------------------------------------------------------------------===//

def Dist_GemmOp : Dist_Op<"gemm"> {
  let summary = "local matrix product: C += op(A) * op(B)";
  let description = [{
    Adds the product of `a` and `b`, each transposed when marked, to `c`,
    with the local BLAS (`cblas_?gemm`, row-major). The operands are 2-D
    views (of boxes or tiles) whose last dimension is contiguous (stride
    1); their first strides are the leading dimensions. With op(A) of size
    m x k and op(B) of size k x n, `c` is m x n; `a` is m x k (k x m when
    transposed) and `b` k x n (n x k when transposed). Elements are f32 or
    f64, one type for all three. Lowers to `distrt_gemm_t_f32` /
    `distrt_gemm_t_f64` with alpha = beta = 1.

    ```mlir
    dist.gemm %a, %b transposed into %c
        : memref<?x?xf64, strided<[?, 1], offset: ?>>,
          memref<?x?xf64, strided<[?, 1], offset: ?>>
          into memref<?x?xf64, strided<[?, 1], offset: ?>>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[F32, F64], [2]>, "", [MemRead]>:$a,
                       UnitAttr:$transpose_a,
                       Arg<MemRefRankOf<[F32, F64], [2]>, "", [MemRead]>:$b,
                       UnitAttr:$transpose_b,
                       Arg<MemRefRankOf<[F32, F64], [2]>, "",
                           [MemRead, MemWrite]>:$c);
  let assemblyFormat = [{
    $a (`transposed` $transpose_a^)? `,` $b (`transposed` $transpose_b^)?
    `into` $c attr-dict `:` type($a) `,` type($b) `into` type($c)
  }];
  let hasVerifier = 1;
}

def Dist_GemvOp : Dist_Op<"gemv"> {
  let summary = "local matrix-vector product: y += op(A) * x";
  let description = [{
    Adds op(`a`) times `x` to `y` with the local BLAS (`cblas_?gemv`,
    row-major): `a` is a 2-D view whose last dimension is contiguous, r x c
    (y has r elements and x c; transposed, y has c and x r); `x` and `y`
    are 1-D views of any stride. Elements are f32 or f64, one type for all
    three. Lowers to `distrt_gemv_t_f32` / `distrt_gemv_t_f64` with alpha =
    beta = 1.

    ```mlir
    dist.gemv %a transposed, %x into %y
        : memref<?x?xf64, strided<[?, 1], offset: ?>>,
          memref<?xf64, strided<[1], offset: ?>>
          into memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[F32, F64], [2]>, "", [MemRead]>:$a,
                       UnitAttr:$transpose,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$x,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "",
                           [MemRead, MemWrite]>:$y);
  let assemblyFormat = [{
    $a (`transposed` $transpose^)? `,` $x `into` $y attr-dict
    `:` type($a) `,` type($x) `into` type($y)
  }];
  let hasVerifier = 1;
}

def Dist_DotOp : Dist_Op<"dot"> {
  let summary = "local dot product accumulated into a scalar";
  let description = [{
    Adds the dot product of the 1-D views `x` and `y` (any strides; the
    length is `x`'s) to the 0-D `acc`, with the local BLAS (`cblas_?dot`).
    Elements are f32 or f64, one type for all three. Lowers to
    `distrt_dot_acc_f32` / `distrt_dot_acc_f64`.

    ```mlir
    dist.dot %x, %y into %acc
        : memref<?xf64, strided<[1], offset: ?>>,
          memref<?xf64, strided<[1], offset: ?>>
          into memref<f64, strided<[], offset: ?>>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$x,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$y,
                       Arg<MemRefRankOf<[F32, F64], [0]>, "",
                           [MemRead, MemWrite]>:$acc);
  let assemblyFormat = [{
    $x `,` $y `into` $acc attr-dict `:` type($x) `,` type($y) `into` type($acc)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Redistribution of tiles
//===----------------------------------------------------------------------===//

// A copy of the tiles of a tensor from one layout (`source_tensor`) into
// another (`dest_tensor`), both of one shape and element type.
class Dist_TileCopyOp<string mnemonic, list<Trait> traits = []>
    : Dist_RuntimeOp<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let hasVerifier = 1;
}

def Dist_RedistributeTileOp : Dist_TileCopyOp<"redistribute_tile"> {
  let summary = "the general exchange between two layouts";
  let description = [{
    Every process ends with its tile of the tensor in `dest_tensor`'s
    layout in `dest`, from the tiles of `source_tensor`'s layout in
    `source`: each element moves straight from a holder to every process
    that needs it (point to point, any pair of layouts; the grids may
    differ but have one number of processes). Lowers to
    `distrt_redistribute`.

    ```mlir
    dist.redistribute_tile %s into %d
        : memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
          into memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> x*">>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Dist_DistTensorTypeAttr:$source_tensor,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Dist_DistTensorTypeAttr:$dest_tensor);
  let assemblyFormat = [{
    $source `into` $dest attr-dict
    `:` type($source) `of` $source_tensor `into` type($dest) `of` $dest_tensor
  }];
}

// One step of a balanced redistribution plan (Schatz 2015; the planner in
// Redistribution.h): both layouts on one grid, mode tuples only (cyclic,
// block-cyclic or unpartitioned dimensions, no skew).
class Dist_RedistStepOp<string mnemonic, string fn, string what>
    : Dist_TileCopyOp<mnemonic> {
  let summary = "a balanced redistribution step: " # what;
  let description = [{
    One step of a balanced redistribution plan: every process ends with its
    tile of the tensor in `dest_tensor`'s layout in `dest`, from the tiles
    of `source_tensor`'s layout in `source`, by }] # what # [{ over the
    grid `axes` (the mesh modes of the step). Both layouts are on one grid
    and are mode tuples: cyclic, block-cyclic or unpartitioned dimensions,
    no skew. Lowers to `}] # fn # [{`.

    ```mlir
    dist.}] # mnemonic # [{ %s into %d axes [1]
        : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), (1)]>>
          into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), ()]>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Dist_DistTensorTypeAttr:$source_tensor,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Dist_DistTensorTypeAttr:$dest_tensor,
                       DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $source `into` $dest `axes` $axes attr-dict
    `:` type($source) `of` $source_tensor `into` type($dest) `of` $dest_tensor
  }];
}

def Dist_RedistSliceOp : Dist_TileCopyOp<"redist_slice"> {
  let summary = "a balanced redistribution step: a local slice";
  let description = [{
    The local step of a balanced redistribution plan: every process copies
    the elements of its tile in `dest_tensor`'s layout out of its tile in
    `source_tensor`'s layout, which holds them all (no communication; also
    a plan without steps). Both layouts are mode tuples on one grid.
    Lowers to `distrt_redist_slice`.

    ```mlir
    dist.redist_slice %s into %d
        : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), ()]>>
          into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), (1)]>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Dist_DistTensorTypeAttr:$source_tensor,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Dist_DistTensorTypeAttr:$dest_tensor);
  let assemblyFormat = [{
    $source `into` $dest attr-dict
    `:` type($source) `of` $source_tensor `into` type($dest) `of` $dest_tensor
  }];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getAxes() { return {}; }
  }];
}

def Dist_RedistAllGatherOp
    : Dist_RedistStepOp<"redist_allgather", "distrt_redist_allgather",
                        "an allgather">;
def Dist_RedistPermuteOp
    : Dist_RedistStepOp<"redist_permute", "distrt_redist_permute",
                        "a permutation">;
def Dist_RedistAllToAllOp
    : Dist_RedistStepOp<"redist_all_to_all", "distrt_redist_alltoall",
                        "an all-to-all">;
def Dist_RedistGatherOp
    : Dist_RedistStepOp<"redist_gather", "distrt_redist_gather",
                        "a gather to one coordinate">;
def Dist_RedistBroadcastOp
    : Dist_RedistStepOp<"redist_broadcast", "distrt_redist_bcast",
                        "a broadcast from one coordinate">;
def Dist_RedistScatterOp
    : Dist_RedistStepOp<"redist_scatter", "distrt_redist_scatter",
                        "a scatter from one coordinate">;
def Dist_RedistChangeKindOp
    : Dist_RedistStepOp<"redist_change_kind", "distrt_redist_kind",
                        "an all-to-all that changes the blocks of dimensions">;

// A reduction of a partial-sum tensor over its summed dimensions.
class Dist_RedistSumOp<string mnemonic, string fn, string what>
    : Dist_TileCopyOp<mnemonic> {
  let summary = "a partial-sum reduction: " # what;
  let description = [{
    The reduction of a partial-sum redistribution (`dist.redistribute ...
    sum [...]`): `dest` receives the tensor in `source` (layout
    `source_tensor`) summed over its dimensions `sum`, which are
    distributed over exactly the grid `axes`, by }] # what # [{; `dest_tensor`
    has the source's shape without the summed dimensions. Both layouts are
    mode tuples on one grid. Lowers to `}] # fn # [{`.

    ```mlir
    dist.}] # mnemonic # [{ %t into %g axes [2] sum [2]
        : memref<?xf64> of !dist.tensor<8x8x2xf64, #dist.layout<@m, [(0), (1), (2)]>>
          into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), (1)]>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Dist_DistTensorTypeAttr:$source_tensor,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Dist_DistTensorTypeAttr:$dest_tensor,
                       DenseI64ArrayAttr:$axes,
                       DenseI64ArrayAttr:$sum);
  let assemblyFormat = [{
    $source `into` $dest `axes` $axes `sum` $sum attr-dict
    `:` type($source) `of` $source_tensor `into` type($dest) `of` $dest_tensor
  }];
}

def Dist_RedistAllReduceOp
    : Dist_RedistSumOp<"redist_allreduce", "distrt_redist_allreduce",
                       "an allreduce (the freed modes replicate)">;
def Dist_RedistReduceScatterOp
    : Dist_RedistSumOp<"redist_reduce_scatter",
                       "distrt_redist_reduce_scatter",
                       "a reduce-scatter (the freed modes become tails of "
                       "the destination's tuples)">;
def Dist_RedistReduceOp
    : Dist_RedistSumOp<"redist_reduce", "distrt_redist_reduce",
                       "a reduce to coordinate 0 of the freed modes (the "
                       "destination is fixed there)">;

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

def Dist_BarrierOp : Dist_RuntimeOp<"barrier", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "barrier over grid axes";
  let description = [{
    Waits until every process of the group (the processes that differ only
    in the coordinates of `axes`) has reached it. Lowers to
    `distrt_barrier`.

    ```mlir
    dist.barrier on @m axes [0, 1]
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid, DenseI64ArrayAttr:$axes);
  let assemblyFormat = "`on` $grid `axes` $axes attr-dict";
}

def Dist_ProfileKernelBeginOp : Dist_RuntimeOp<"profile_kernel_begin"> {
  let summary = "marks the start of a timed computation for the profile";
  let description = [{
    Starts a computation for `DISTRT_PROFILE` (a no-op when profiling is
    off); the next `dist.report_time` ends it. Lowers to
    `distrt_profile_kernel_begin`.

    ```mlir
    dist.profile_kernel_begin
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Dist_WtimeOp : Dist_RuntimeOp<"wtime"> {
  let summary = "wall-clock time in seconds";
  let description = [{
    The process's wall-clock time in seconds (`MPI_Wtime`). Lowers to
    `distrt_wtime`.

    ```mlir
    %t0 = dist.wtime
    ```
  }];
  let results = (outs F64:$time);
  let assemblyFormat = "attr-dict";
}

def Dist_ReportTimeOp : Dist_RuntimeOp<"report_time", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "reports the time of a computation";
  let description = [{
    Rank 0 of the grid prints the maximum of `seconds` over the processes
    with `label` (a statement); ends the profile region of
    `dist.profile_kernel_begin`. Lowers to `distrt_report_time`.

    ```mlir
    dist.report_time "A(i,j) = B(i,k) * C(k,j)", %secs on @m
    ```
  }];
  let arguments = (ins StrAttr:$label, F64:$seconds, FlatSymbolRefAttr:$grid);
  let assemblyFormat = "$label `,` $seconds `on` $grid attr-dict";
}

//===----------------------------------------------------------------------===//
// The reference check
//===----------------------------------------------------------------------===//

def Dist_GridRankOp : Dist_RuntimeQueryOp<"grid_rank", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the rank of this process in a grid";
  let description = [{
    This process's rank in the grid (its coordinates row-major, the last
    axis fastest). Lowers to `distrt_grid_rank`.

    ```mlir
    %r = dist.grid_rank @m
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid);
  let results = (outs Index:$rank);
  let assemblyFormat = "$grid attr-dict";
}

def Dist_GatherTileOp : Dist_RuntimeOp<"gather_tile", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "gathers the whole tensor on one process";
  let description = [{
    Grid rank `root` receives the whole tensor of type `tensor`, row-major,
    in `whole` (a buffer of as many elements, with the tensor's shape or
    flat), from the tiles in `tile`; other processes leave `whole`
    untouched. Lowers to `distrt_layout_gather`.

    ```mlir
    dist.gather_tile %tile into %whole root 0
        : memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
          into memref<64x64xf64>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor,
                       Arg<AnyMemRef, "", [MemWrite]>:$whole,
                       I64Attr:$root);
  let assemblyFormat = [{
    $tile `into` $whole `root` $root attr-dict
    `:` type($tile) `of` $tensor `into` type($whole)
  }];
  let hasVerifier = 1;
}

def Dist_ReferenceOp : Dist_RuntimeOp<"reference"> {
  let summary = "evaluates a statement with the runtime's own evaluator";
  let description = [{
    Evaluates the tensor index notation `statement` over whole tensors on
    the calling process with the runtime's reference evaluator, which
    shares no code with the compiler (the oracle of `check`). `names` binds
    the statement's tensors, in order, to `buffers`: row-major, with the
    tensors' shapes (0-D for an order-0 tensor), one element type (f32,
    f64, i32 or i64). The output's buffer receives the result (it holds the
    old values for `+=`). Lowers to `distrt_reference_begin`, one
    `distrt_reference_bind` per tensor and `distrt_reference_run`.

    ```mlir
    dist.reference "A(i,j) = B(i,k) * C(k,j)" bind ["A", "B", "C"]
        to %a, %b, %c : memref<64x64xf64>, memref<64x64xf64>, memref<64x64xf64>
    ```
  }];
  let arguments = (ins StrAttr:$statement, StrArrayAttr:$names,
                       Arg<Variadic<AnyMemRef>, "",
                           [MemRead, MemWrite]>:$buffers);
  let assemblyFormat = [{
    $statement `bind` $names `to` $buffers attr-dict `:` type($buffers)
  }];
  let hasVerifier = 1;
}

// A comparison of every copy of a tensor with its whole reference on rank 0.
class Dist_CheckOp<string mnemonic, list<Trait> traits = []>
    : Dist_RuntimeOp<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let hasVerifier = 1;
}

def Dist_CheckResultOp : Dist_CheckOp<"check_result"> {
  let summary = "compares a tensor's tiles with a reference";
  let description = [{
    Collective: rank 0 of the tensor's grid broadcasts `reference` (the
    whole tensor, row-major, read on rank 0 only); every process compares
    every element of its tile with it (relative error at most `tolerance`)
    and rank 0 prints one PASS or FAIL line with `label`. Lowers to
    `distrt_check_result`.

    ```mlir
    dist.check_result %tile against %ref label "A(i) = B(i)" tolerance 1.0e-12
        : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>,
          memref<8xf64>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor,
                       Arg<AnyMemRef, "", [MemRead]>:$reference,
                       StrAttr:$label,
                       F64Attr:$tolerance);
  let assemblyFormat = [{
    $tile `against` $reference `label` $label `tolerance` $tolerance attr-dict
    `:` type($tile) `of` $tensor `,` type($reference)
  }];
}

def Dist_CheckUnchangedOp : Dist_CheckOp<"check_unchanged"> {
  let summary = "checks that a computation left an input unchanged";
  let description = [{
    Collective: like `dist.check_result` with tolerance 0, for a tensor a
    computation only read (`reference` is its gathered copy from before);
    silent when every copy still equals it. Lowers to
    `distrt_check_unchanged`.

    ```mlir
    dist.check_unchanged %tile against %before label "input B of A(i) = B(i)"
        : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>,
          memref<8xf64>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor,
                       Arg<AnyMemRef, "", [MemRead]>:$reference,
                       StrAttr:$label);
  let assemblyFormat = [{
    $tile `against` $reference `label` $label attr-dict
    `:` type($tile) `of` $tensor `,` type($reference)
  }];
}

def Dist_SumReferenceOp : Dist_RuntimeOp<"sum_reference", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "sums a whole tensor over dimensions on one process";
  let description = [{
    Grid rank `root` writes into `result` the whole tensor `whole` (its
    shape is the tensor's) summed over the dimensions `sum` (the reference
    of a partial-sum redistribution); `result` has `whole`'s shape without
    them. Other processes do nothing. Lowers to `distrt_sum_reference`.

    ```mlir
    dist.sum_reference %whole into %ref on @m sum [2] root 0
        : memref<8x8x2xf64> into memref<8x8xf64>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$whole,
                       Arg<AnyMemRef, "", [MemWrite]>:$result,
                       FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$sum,
                       I64Attr:$root);
  let assemblyFormat = [{
    $whole `into` $result `on` $grid `sum` $sum `root` $root attr-dict
    `:` type($whole) `into` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Device memory (dist-device-memory, `dist-to-llvm{device=gpu}`)
//===----------------------------------------------------------------------===//

// A contiguous 1-D buffer with the identity layout: a tile or a transfer
// buffer.
def Dist_FlatBuffer : MemRefRankOf<[AnyType], [1]>;

def Dist_DeviceAllocOp : Dist_RuntimeOp<"device_alloc"> {
  let summary = "allocates a tile or transfer buffer in device memory";
  let description = [{
    Allocates a buffer of the result type's element count (`size` when it
    is dynamic) in the memory of the process's accelerator (GPU memory on
    the NCCL backend, host memory on the MPI backend); a null buffer when
    the allocation failed (followed by dist.check_alloc). The host must not
    read or write it. dist-device-memory makes the tiles and transfer
    buffers of a program such buffers. Lowers to `distrt_device_alloc`.

    ```mlir
    %t = dist.device_alloc(%n) : memref<?xf64>
    ```
  }];
  let arguments = (ins Optional<Index>:$size);
  let results = (outs Dist_FlatBuffer:$buffer);
  let assemblyFormat = "`(` $size `)` attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Dist_DeviceFreeOp : Dist_RuntimeOp<"device_free"> {
  let summary = "frees a buffer of dist.device_alloc";
  let description = [{
    Frees `buffer`, which dist.device_alloc returned. Lowers to
    `distrt_device_free`.

    ```mlir
    dist.device_free %t : memref<?xf64>
    ```
  }];
  let arguments = (ins Dist_FlatBuffer:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
}

def Dist_ZeroBufferOp : Dist_RuntimeOp<"zero_buffer"> {
  let summary = "sets the first elements of a buffer to zero";
  let description = [{
    Stores zero into elements [0, count) of `buffer`, in host or device
    memory, without the host touching device memory (the zeroing of a
    partial-result buffer on device tiles). Lowers to `distrt_zero_buffer`.

    ```mlir
    dist.zero_buffer %buf, %n : memref<512xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_FlatBuffer, "", [MemWrite]>:$buffer,
                       Index:$count);
  let assemblyFormat = "$buffer `,` $count attr-dict `:` type($buffer)";
}

#endif // DIST_KERNEL_OPS_TD
