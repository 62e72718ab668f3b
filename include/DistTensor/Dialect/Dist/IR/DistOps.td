//===- DistOps.td - dist dialect operations ----------------*- tablegen -*-===//

#ifndef DIST_OPS_TD
#define DIST_OPS_TD

include "DistTensor/Dialect/Dist/IR/DistBase.td"
include "DistTensor/Dialect/Dist/IR/DistAttrs.td"
include "DistTensor/Dialect/Dist/IR/DistTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

//===----------------------------------------------------------------------===//
// Machines
//===----------------------------------------------------------------------===//

def Dist_GridOp : Dist_Op<"grid", [Symbol]> {
  let summary = "declares a named processor grid (a machine)";
  let description = [{
    Declares a machine: a named processor grid of any rank and extent. A
    hierarchical machine lists one grid per level, outermost first; every
    processor of a level is itself a grid of the next level. Each level names
    the kind of processor it is made of (`cpu`: an MPI rank, `gpu`: a GPU,
    `node`: a host). The kind defaults to `cpu` for a one-level grid.

    ```mlir
    // DISTAL: Machine m(Grid(2, 2))
    dist.grid @m [2, 2]
    // 2x2 nodes, each a 1-D grid of 4 GPUs.
    dist.grid @h node[2, 2], gpu[4]
    ```

    Processor coordinates map to ranks row-major (the last grid dimension
    varies fastest); the grid of a program started with the wrong number of
    ranks stops at run time with a message naming both numbers. A machine
    has at most 8 axes, all levels together (the runtime's
    `DISTRT_MAX_DIMS`), and at most 2^20 processors.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypedArrayAttrBase<Dist_GridLevelAttr,
                         "grid levels">:$levels);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of levels of the machine (1 for a flat grid).
    unsigned getNumLevels() { return getLevels().size(); }
    /// The grid level at index `i` (0 is the outermost).
    GridLevelAttr getLevel(unsigned i);
    /// Extents of the outermost level.
    ::llvm::ArrayRef<int64_t> getShape() { return getLevel(0).getShape(); }
    /// Total number of processors at the outermost level.
    int64_t getNumProcessors();
  }];
}

def Dist_GridHandleOp : Dist_Op<"grid_handle", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the run-time handle of a declared processor grid";
  let description = [{
    Yields the `distrt` runtime handle of the grid declared by the referenced
    `dist.grid`, created on first use (MPI communicators included) and cached
    for the rest of the run. `convert-dist-to-runtime` lowers it to one call
    of `distrt_grid_lookup`; that call checks the number of ranks the program
    was started with against the grid's size.

    ```mlir
    %g = dist.grid_handle @m : !llvm.ptr
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid);
  let results = (outs LLVM_AnyPointer:$handle);
  let assemblyFormat = "$grid attr-dict `:` qualified(type($handle))";
}

//===----------------------------------------------------------------------===//
// Distributed tensors and computation
//===----------------------------------------------------------------------===//

def Dist_AllocOp : Dist_Op<"alloc", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "allocates a distributed tensor";
  let description = [{
    Allocates the local tiles of a distributed tensor on every processor of
    its machine, as its layout says. A sparse tensor starts with no entries
    (`dist.load` or `dist.generate` gives it some).

    ```mlir
    %A = dist.alloc : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let results = (outs Res<Dist_StaticTensorType, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Dist_FillOp : Dist_Op<"fill", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "fills a distributed tensor with deterministic values";
  let description = [{
    Gives every element a value that depends only on its global index and
    the seed (`distrt_value`), so the same tensor filled under any layout or
    rank count holds the same values.

    ```mlir
    dist.fill %B seed 1 : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Arg<Dist_StaticDenseTensorType, "", [MemWrite]>:$tensor,
                       I64Attr:$seed);
  let assemblyFormat = "$tensor `seed` $seed attr-dict `:` qualified(type($tensor))";
}

def Dist_LoadOp : Dist_Op<"load", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "reads a distributed tensor from a file";
  let description = [{
    Reads the whole tensor from the file at `path` (a dist tensor file, see
    docs/reliability.md#tensor-files) into `tensor`: every processor reads
    the elements its layout gives it, and nothing else, straight from the
    file. The file's element type, rank and shape must be those of the
    tensor's type. A relative path is relative to the working directory of
    the running program.

    Every fault is detected at run time and ends every rank with one
    `distrt: fatal: rank R of N: dist.load: ...` line and a non-zero exit: a
    missing or unreadable file, a file that is not a dist tensor file (bad
    magic), an unsupported version, another element type or shape, or a
    file shorter or longer than its header says.

    A path ending in `.npy` (any case) names a NumPy file instead
    (docs/interop.md): format version 1.0, 2.0 or 3.0, `descr` `<f8`,
    `<f4`, `<i4` or `<i8` (also written with `|`, `=` or no byte-order
    character), which must be the tensor's element type, the tensor's shape,
    C or Fortran order; every processor still reads only its own elements.
    A bad `.npy` file (not NumPy's magic, another version, a malformed
    header, a big-endian, object, structured or other unsupported dtype,
    another element type or shape, a file shorter or longer than its header
    says) ends every rank with one such line naming the cause.

    A sparse tensor (docs/sparse.md) is read from a MatrixMarket (`.mtx`),
    Harwell-Boeing (`.rua`, `.rsa`, `.rra`, `.pua`, `.psa`, `.pra`) or
    FROSTT (`.tns`) file, chosen by the extension (a `.npy` path, which
    holds a dense array, is rejected by the verifier); every process reads
    its own rows. A bad file (truncated, wrong header, coordinates out of range
    or repeated, wrong symmetry, another shape) ends every rank with one
    line naming the file, the line and the cause.

    ```mlir
    dist.load %B from "b.dtensor" : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    dist.load %X from "x.npy" : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Arg<Dist_StaticTensorType, "", [MemWrite]>:$tensor,
                       StrAttr:$path);
  let assemblyFormat =
      "$tensor `from` $path attr-dict `:` qualified(type($tensor))";
  let hasVerifier = 1;
}

def Dist_StoreOp : Dist_Op<"store", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "writes a distributed tensor to a file";
  let description = [{
    Writes the whole tensor to the file at `path` in the dist tensor file
    format (a header with magic, version, element type, rank and shape, then
    the elements in row-major order; see
    docs/reliability.md#tensor-files). Every element is written once, by one
    of the processors that hold it, so the file does not depend on the
    layout or the number of ranks. The data goes to `path.partial` first and
    is renamed to `path` when every rank has written its part, so an
    interrupted run never leaves a complete-looking file. A relative path is
    relative to the working directory of the running program; the ranks
    must share a file system.

    A path ending in `.npy` (any case) is written as a NumPy file that
    `numpy.load` reads: format 1.0, C order, numpy's header padded so that
    the elements start at a multiple of 64 bytes; like the dist format it
    does not depend on the layout or the number of ranks.

    A sparse tensor is written as a MatrixMarket coordinate file (`.mtx`,
    the only extension accepted for it), every process writing its own
    rows; `dist.load` reads it back, on any number of processes.

    ```mlir
    dist.store %C to "c.dtensor" : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    dist.store %C to "c.npy" : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Arg<Dist_StaticTensorType, "", [MemRead]>:$tensor,
                       StrAttr:$path);
  let assemblyFormat =
      "$tensor `to` $path attr-dict `:` qualified(type($tensor))";
  let hasVerifier = 1;
}

def Dist_ComputeOp : Dist_Op<"compute", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "one tensor-index-notation statement and its schedule";
  let description = [{
    Computes one statement of tensor index notation over distributed
    tensors, e.g. `A(i,l) = B(i,j,k) * C(j,l) * D(k,l)`: accesses of named
    tensors, `+`, `-`, `*`, scalar constants and parentheses; index
    variables that appear only on the right are summed over. The names of
    the statement are bound to tensor values in the list that follows; the
    tensor on the left is written (`=` overwrites, `+=` accumulates), the
    others are read.

    The optional schedule (DISTAL's commands, see `#dist.schedule`) changes
    how the statement runs, never what it computes.

    ```mlir
    dist.compute "A(i,j) = B(i,k) * C(k,j)"
        (A = %a, B = %b, C = %c) : !tA, !tB, !tC
        schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                  split(k, ko, ki, 32), reorder({ko, ii, ji, ki}),
                  communicate(A, jo), communicate({B, C}, ko)]
    ```

    `schedule auto` (the unit attribute `auto_schedule`) leaves the
    schedule to `dist-auto-schedule`, which `dist-to-llvm` runs: it writes
    the cheapest schedule of its candidates by the calibrated cost model
    (docs/autoschedule.md). Until then the computation verifies as a dense
    statement without a schedule on any machine, and the SPMD lowering
    rejects it.

    The statement is a `#dist.statement` and the schedule a
    `#dist.schedule`: the statement is parsed once, when the op is read,
    and a statement that does not parse is an error there, with its
    column. The op's `getLoopNest()` gives the verifier and every later
    reader the statement, the extent of each index variable (from the
    tensor types) and the loop nest the schedule makes.
  }];
  let arguments = (ins Dist_StatementAttr:$statement,
                       StrArrayAttr:$names,
                       Variadic<Dist_TensorType>:$tensors,
                       OptionalAttr<Dist_ScheduleAttr>:$schedule,
                       UnitAttr:$auto_schedule);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tensor value bound to `name` in the statement, or null.
    ::mlir::Value getTensorNamed(::llvm::StringRef name);
    /// The parsed statement (held by the #dist.statement; `getStatement()`
    /// is its text as written).
    const ::mlir::dist::IndexStatement &getIndexStatement() {
      return getStatementAttr().getStatement();
    }
    /// The statement, each index variable's extent and the loop nest the
    /// schedule makes of it (one loop per index variable without a
    /// schedule): what the verifier checks and every later reader uses.
    /// Emits the verifier's diagnostic on the op and fails when the tensors
    /// do not fit the statement or the schedule does not apply.
    ::mlir::FailureOr<::mlir::dist::ComputeLoopNest> getLoopNest();
  }];
}

def Dist_RedistributeOp : Dist_Op<"redistribute", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "copies a distributed tensor into another layout";
  let description = [{
    Copies the global tensor `source` into `dest`, which has the same shape
    and element type but another layout (possibly on another grid of the
    same size: the verifier rejects grids with different numbers of
    processes, since a program runs on one number of ranks). Afterwards
    every processor holds in `dest` exactly the elements the destination
    layout gives it.

    ```mlir
    dist.redistribute %a into %b : !tA into !tB
    ```

    With `sum [d, ...]` the source is a partial-sum temporary (Schatz 2015,
    sec. 5): `dest` receives the source summed over the listed dimensions,
    which must be distributed over grid axes (their mesh modes are freed);
    `dest` has the shape of the source without them. This is the thesis'
    reduce-scatter (the freed modes become tails of the destination's
    tuples), allreduce (they become replication) or reduce-to-one (the
    destination is fixed to coordinate 0 on them):

    ```mlir
    // T(m, i, e) on [(), (2,3), (0,1)]: G(m, i) = sum_e T(m, i, e).
    dist.redistribute %T into %G sum [2] : !tT into !tG
    ```
  }];
  let arguments = (ins Arg<Dist_StaticDenseTensorType, "", [MemRead]>:$source,
                       Arg<Dist_StaticDenseTensorType, "", [MemWrite]>:$dest,
                       OptionalAttr<DenseI64ArrayAttr>:$sum);
  let assemblyFormat =
      "$source `into` $dest (`sum` $sum^)? attr-dict `:` qualified(type($source)) `into` qualified(type($dest))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Communication on local buffers (SPMD form)
//===----------------------------------------------------------------------===//

// The network: every communication op reads and writes it, so no rewrite
// removes, duplicates or reorders one on a single rank (each pairs with the
// same op on other ranks), even when its buffers are only read (dist.send).
def Dist_CommResource : Resource<"::mlir::dist::CommResource">;

class Dist_CommOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        MemoryEffects<[MemRead<Dist_CommResource>,
                       MemWrite<Dist_CommResource>]>])> {
  code commonExtraDecl = [{
    /// Grid axes the collective spans, as a bit mask (bit i = axis i).
    int64_t getAxesMask() {
      int64_t m = 0;
      for (int64_t a : getAxes())
        m |= int64_t(1) << a;
      return m;
    }
  }];
}

def Dist_BroadcastOp : Dist_CommOp<"broadcast"> {
  let summary = "broadcast a buffer from a root over grid axes";
  let description = [{
    Over every group of processors that differ only in the coordinates of
    `axes`, the buffer of the processor with index `root` in the group is
    copied into the buffers of the others. Processors are numbered inside a
    group row-major over the group's axes (the last axis varies fastest),
    the same order as grid ranks; this holds for every collective.

    ```mlir
    dist.broadcast %tile on @m axes [1] root %r : memref<32x32xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead, MemWrite]>:$buffer,
                       Index:$root);
  let assemblyFormat = [{
    $buffer `on` $grid `axes` $axes `root` $root attr-dict `:` qualified(type($buffer))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_AllReduceOp : Dist_CommOp<"allreduce"> {
  let summary = "in-place all-reduce over grid axes";
  let description = [{
    Every processor of a group (the processors that differ only in the
    coordinates of `axes`) ends with the element-wise reduction (`sum`,
    `prod`, `min`, `max`) of the group's buffers.

    ```mlir
    dist.allreduce %partial on @m axes [0, 1] sum : memref<64xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead, MemWrite]>:$buffer,
                       Dist_ReductionKind:$kind);
  let assemblyFormat = [{
    $buffer `on` $grid `axes` $axes $kind attr-dict `:` qualified(type($buffer))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_ReduceOp : Dist_CommOp<"reduce"> {
  let summary = "in-place reduce to a root over grid axes";
  let description = [{
    The group member `root` ends with the element-wise reduction of the
    group's buffers; the other buffers are left as they were.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead, MemWrite]>:$buffer,
                       Dist_ReductionKind:$kind,
                       Index:$root);
  let assemblyFormat = [{
    $buffer `on` $grid `axes` $axes $kind `root` $root attr-dict
    `:` qualified(type($buffer))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

class Dist_InOutCommOp<string mnemonic> : Dist_CommOp<mnemonic> {
  let hasVerifier = 1;
}

def Dist_AllGatherOp : Dist_InOutCommOp<"allgather"> {
  let summary = "all-gather over grid axes";
  let description = [{
    Every processor contributes `input`; `output` receives the inputs of
    the group in the order of their linear index along `axes`, so it holds
    (group size) times as many elements.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead]>:$input,
                       Arg<AnyMemRef, "", [MemWrite]>:$output);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes attr-dict
    `:` qualified(type($input)) `into` qualified(type($output))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_ReduceScatterOp : Dist_InOutCommOp<"reduce_scatter"> {
  let summary = "reduce-scatter over grid axes";
  let description = [{
    The inputs of the group (each `group size` times the output's elements)
    are reduced element-wise; member j receives the j-th slice of the result
    in `output`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead]>:$input,
                       Arg<AnyMemRef, "", [MemWrite]>:$output,
                       Dist_ReductionKind:$kind);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes $kind attr-dict
    `:` qualified(type($input)) `into` qualified(type($output))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_ReduceScatterBlocksOp : Dist_CommOp<"reduce_scatter_blocks"> {
  let summary = "reduce-scatter over grid axes in blocks that need not "
                "divide the input";
  let description = [{
    The inputs of the group (all with the input's n elements) are reduced
    element-wise; member j receives elements
    `[j * block, min((j + 1) * block, n))` of the result in `output` (none
    when `j * block >= n`). The group's blocks must cover the input
    (`block * group size >= n`, checked when it runs) and `output` must hold
    the member's piece. These are the pieces of a blocked layout whose
    extent the group does not divide (MPI's reduce-scatter with counts):

    ```mlir
    // 2,000 rows on 3 processes: pieces of 667, 667 and 666 rows.
    dist.reduce_scatter_blocks %partial into %piece on @m axes [0] sum
        block %c667 : memref<?xf64> into memref<?xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemWrite]>:$output,
                       Dist_ReductionKind:$kind,
                       Index:$block);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes $kind `block` $block
    attr-dict `:` type($input) `into` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_AllToAllOp : Dist_InOutCommOp<"all_to_all"> {
  let summary = "all-to-all over grid axes";
  let description = [{
    `input` is cut into `group size` equal slices; slice j goes to member j,
    and `output` holds the slices received, in member order.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead]>:$input,
                       Arg<AnyMemRef, "", [MemWrite]>:$output);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes attr-dict
    `:` qualified(type($input)) `into` qualified(type($output))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_GatherOp : Dist_InOutCommOp<"gather"> {
  let summary = "gather to a root over grid axes";
  let description = [{
    Member `root` receives every member's `input`, in member order, in
    `output` (which other members do not touch).
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead]>:$input,
                       Arg<AnyMemRef, "", [MemWrite]>:$output,
                       Index:$root);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes `root` $root attr-dict
    `:` qualified(type($input)) `into` qualified(type($output))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_ScatterOp : Dist_InOutCommOp<"scatter"> {
  let summary = "scatter from a root over grid axes";
  let description = [{
    Member `root`'s `input` is cut into `group size` equal slices; member j
    receives slice j in `output`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<AnyMemRef, "", [MemRead]>:$input,
                       Arg<AnyMemRef, "", [MemWrite]>:$output,
                       Index:$root);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes `root` $root attr-dict
    `:` qualified(type($input)) `into` qualified(type($output))
  }];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_ShiftOp : Dist_CommOp<"shift"> {
  let summary = "systolic shift along one grid axis";
  let description = [{
    Periodic shift along `axis`: afterwards the buffer holds what the
    processor `offset` coordinates further along the axis held before (so
    `offset = 1` moves data towards lower coordinates, Cannon's "shift
    left").

    ```mlir
    dist.shift %tile on @m axis 1 offset 1 : memref<32x32xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       I64Attr:$axis,
                       I64Attr:$offset,
                       Arg<AnyMemRef, "", [MemRead, MemWrite]>:$buffer);
  let assemblyFormat = [{
    $buffer `on` $grid `axis` $axis `offset` $offset attr-dict
    `:` qualified(type($buffer))
  }];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getAxes() { return {}; }
  }];
}

def Dist_SendOp : Dist_CommOp<"send"> {
  let summary = "point-to-point send to a grid rank";
  let description = [{
    Sends the buffer to grid rank `dest` with `tag`; completes when the
    buffer may be reused. Pairs with a `dist.recv` on `dest`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       Arg<AnyMemRef, "", [MemRead]>:$buffer,
                       Index:$dest,
                       I64Attr:$tag);
  let assemblyFormat = [{
    $buffer `to` $dest `on` $grid `tag` $tag attr-dict `:` qualified(type($buffer))
  }];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getAxes() { return {}; }
  }];
}

def Dist_RecvOp : Dist_CommOp<"recv"> {
  let summary = "point-to-point receive from a grid rank";
  let description = [{
    Receives into the buffer the message with `tag` from grid rank `source`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       Arg<AnyMemRef, "", [MemWrite]>:$buffer,
                       Index:$source,
                       I64Attr:$tag);
  let assemblyFormat = [{
    $buffer `from` $source `on` $grid `tag` $tag attr-dict `:` qualified(type($buffer))
  }];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getAxes() { return {}; }
  }];
}

//===----------------------------------------------------------------------===//
// SPMD operations
//===----------------------------------------------------------------------===//

def Dist_LocalTileOp : Dist_Op<"local_tile", [Pure]> {
  let summary = "the running process's local tile of a distributed tensor";
  let description = [{
    The storage of the part of a distributed tensor that the running process
    holds: a flat buffer in the layout's local order (row-major over the
    tile's extents, `distrt_layout_tile_capacity` elements). The SPMD ops
    that `dist-lower-redistributions` and `dist-lower-computations` emit
    read and write tensors through it; `dist-tensors-to-tiles` then replaces
    every distributed tensor by its tile (a type conversion), and this op
    by its operand's tile.

    ```mlir
    %tA = dist.local_tile %A : !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">> -> memref<?xf64>
    ```
  }];
  let arguments = (ins Dist_DenseTensorType:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$tile);
  let assemblyFormat = [{
    $tensor attr-dict `:` qualified(type($tensor)) `->` type($tile)
  }];
  let hasVerifier = 1;
}

include "DistTensor/Dialect/Dist/IR/DistTransferOps.td"
include "DistTensor/Dialect/Dist/IR/DistKernelOps.td"
include "DistTensor/Dialect/Dist/IR/DistSparseOps.td"
include "DistTensor/Dialect/Dist/IR/DistOneSidedOps.td"

#endif // DIST_OPS_TD
