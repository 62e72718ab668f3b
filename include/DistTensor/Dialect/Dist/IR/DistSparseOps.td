//===- DistSparseOps.td - sparse tensors: generation, SPMD ops --*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Included by DistOps.td (after DistKernelOps.td). dist.generate, which
// fills a sparse distributed tensor from a generator, and the SPMD ops on
// the running process's piece of a sparse tensor (!dist.sparse_tile, a
// runtime-owned distrt_spmat): what dist-materialize-spmd emits for sparse
// tensors and convert-dist-to-runtime lowers to distrt_spmat_* calls
// (lib/Conversion/DistToRuntime/SparseToRuntime.cpp). Verifiers live in
// lib/Dialect/Dist/IR/SparseOps.cpp; docs/sparse.md is the user's guide.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_SPARSE_OPS_TD
#define DIST_SPARSE_OPS_TD

def Dist_GenerateOp : Dist_Op<"generate", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "fills a sparse distributed tensor from a generator";
  let description = [{
    Replaces the entries of the sparse matrix `tensor` with a generated
    sparsity pattern and values. Every generator is deterministic in `seed`
    and gives the same matrix on any number of processes (values lie in
    [-1, 1) and are never 0):

    - `banded(w)`: square; row i holds the columns j with |i - j| <= w / 2
      (w odd), so w entries per inner row;
    - `rmat(e)`: square; an R-MAT (Kronecker) graph of e * rows draws with
      the Graph500 probabilities (0.57, 0.19, 0.19, 0.05), duplicates kept
      once: power-law rows;
    - `uniform(e)`: e * rows uniformly drawn coordinates, duplicates kept
      once.

    A tensor of order 3 takes `uniform(e)` (e * d0 coordinates drawn
    uniformly in d0 x d1 x d2) or `rmat(e)` (e * d0 coordinates drawn as an
    R-MAT matrix's rows are in every mode, `distrt_coo_gen_kronecker`: a
    power-law tensor, as FROSTT's are), not `banded`.

    ```mlir
    dist.generate %B banded(11) seed 1 : !dist.tensor<1000x1000xf64,
        #dist.layout<@m, "xy -> x">,
        #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTensorType, "", [MemWrite]>:$tensor,
                       Dist_GeneratorKind:$kind, I64Attr:$param,
                       I64Attr:$seed);
  let assemblyFormat = [{
    $tensor $kind `(` $param `)` `seed` $seed attr-dict `:`
    qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SPMD ops on sparse tiles
//===----------------------------------------------------------------------===//

def Dist_SparseLocalOp : Dist_Op<"sparse_local", [Pure]> {
  let summary = "the running process's piece of a sparse distributed tensor";
  let description = [{
    The sparse counterpart of `dist.local_tile`: the handle of the piece of
    sparse tensor `tensor` the running process holds.
    `dist-tensors-to-tiles` replaces it by its operand's handle.

    ```mlir
    %h = dist.sparse_local %B : !B -> !dist.sparse_tile
    ```
  }];
  let arguments = (ins Dist_SparseTensorType:$tensor);
  let results = (outs Dist_SparseTileType:$tile);
  let assemblyFormat = [{
    $tensor attr-dict `:` qualified(type($tensor)) `->` qualified(type($tile))
  }];
}

def Dist_SparseNewOp : Dist_RuntimeOp<"sparse_new", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "creates this process's empty piece of a sparse tensor";
  let description = [{
    Collective over the grid of `tensor`'s layout: creates the runtime's
    matrix object (`distrt_spmat_create`) for a sparse tensor of type
    `tensor`, with no entries. What `dist.alloc` of a sparse tensor becomes;
    `dist.sparse_free` frees it.

    ```mlir
    %h = dist.sparse_new : !dist.sparse_tile of !B
    ```
  }];
  let arguments = (ins Dist_DistTensorTypeAttr:$tensor);
  let results = (outs Res<Dist_SparseTileType, "", [MemAlloc]>:$tile);
  let assemblyFormat = "attr-dict `:` qualified(type($tile)) `of` $tensor";
  let hasVerifier = 1;
}

def Dist_SparseFreeOp : Dist_RuntimeOp<"sparse_free"> {
  let summary = "frees this process's piece of a sparse tensor";
  let description = [{
    Collective: frees what `dist.sparse_new` created, with its exchange plan
    (`distrt_spmat_free`).
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemFree]>:$tile);
  let assemblyFormat = "$tile attr-dict `:` qualified(type($tile))";
}

def Dist_SparseReadOp : Dist_RuntimeOp<"sparse_read"> {
  let summary = "reads a sparse tensor from a matrix file";
  let description = [{
    Collective: every process reads its rows of the MatrixMarket (`.mtx`),
    Harwell-Boeing (`.rua`, `.rsa`, `.rra`, `.pua`, `.psa`, `.pra`) or
    FROSTT (`.tns`) file at `path` (`distrt_spmat_read`). What `dist.load`
    of a sparse tensor becomes.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       StrAttr:$path);
  let assemblyFormat =
      "$tile `from` $path attr-dict `:` qualified(type($tile))";
}

def Dist_SparseWriteOp : Dist_RuntimeOp<"sparse_write"> {
  let summary = "writes a sparse tensor to a MatrixMarket or FROSTT file";
  let description = [{
    Collective: every process writes its rows of the matrix at its offset
    of the MatrixMarket file at `path` (`distrt_spmat_write_mm`), or, when
    `path` ends in `.tns`, its entries of a tensor of order 3 in FROSTT
    form (`distrt_spmat_write_tns`); through `path.partial`, renamed when
    every process has written. What `dist.store` of a sparse tensor
    becomes.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       StrAttr:$path);
  let assemblyFormat =
      "$tile `to` $path attr-dict `:` qualified(type($tile))";
}

def Dist_SparseGenerateOp : Dist_RuntimeOp<"sparse_generate"> {
  let summary = "fills a sparse tile from a generator";
  let description = [{
    Collective: what `dist.generate` becomes (`distrt_spmat_generate`).
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Dist_GeneratorKind:$kind, I64Attr:$param,
                       I64Attr:$seed);
  let assemblyFormat = [{
    $tile $kind `(` $param `)` `seed` $seed attr-dict `:` qualified(type($tile))
  }];
}

def Dist_SparsePlanOp : Dist_RuntimeOp<"sparse_plan"> {
  let summary = "builds the exchange plan of a sparse matrix";
  let description = [{
    Collective: splits this process's rows into the entries whose column
    it owns in a dense operand blocked like the matrix's rows (`diag`) and
    the others (`offdiag`, columns renumbered to ghosts), and agrees with
    the other processes on which rows of that operand each sends where
    (`distrt_spmat_plan`). Built once per matrix: later calls return at
    once.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile);
  let assemblyFormat = "$tile attr-dict `:` qualified(type($tile))";
}

def Dist_SparsePartOp : Dist_RuntimeQueryOp<"sparse_part"> {
  let summary = "a view of one part of a process's sparse piece, as CSR";
  let description = [{
    The positions, coordinates and values of one part (`all`, `diag` or
    `offdiag`, see `dist.sparse_plan`) of this process's rows, as memrefs
    into the runtime's storage (`distrt_spmat_part`), and the column extent
    of the part's numbering (the matrix's columns, the process's block of
    the dense operand, the number of ghosts). With rows blocked, every
    process has ceil(rows / P) rows (`pos` has one more entry); rows past
    its last are empty. With a non-zero partition, the rows of
    `dist.sparse_local_rows`, numbered from its first. The element types are the encoding's `pos` and `crd` widths
    (`index` for 0) and the tensor's.

    ```mlir
    %pos, %crd, %val, %n = dist.sparse_part %h diag of !B
        : !dist.sparse_tile -> memref<?xi32>, memref<?xi32>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Dist_SparsePart:$part,
                       Dist_DistTensorTypeAttr:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$pos,
                      MemRefRankOf<[AnyType], [1]>:$crd,
                      MemRefRankOf<[AnyType], [1]>:$values,
                      Index:$ncols);
  let assemblyFormat = [{
    $tile $part `of` $tensor attr-dict `:` qualified(type($tile)) `->`
    type($pos) `,` type($crd) `,` type($values)
  }];
  let hasVerifier = 1;
}

def Dist_SparseOffdiagRowsOp : Dist_RuntimeQueryOp<"sparse_offdiag_rows"> {
  let summary = "the rows of the offdiag part that hold entries";
  let description = [{
    The local rows of the `offdiag` part (see `dist.sparse_plan`) that hold
    entries, increasing, and their positions into the part's coordinates
    and values (`distrt_spmat_offdiag_rows`): the part as compressed rows
    (DCSR), so that its product skips the rows without ghosts, as PETSc's
    compressed rows of the off-diagonal block do. `nrows` is their number;
    `pos` has one more entry.

    ```mlir
    %rows, %pos, %n = dist.sparse_offdiag_rows %h of !B
        : !dist.sparse_tile -> memref<?xi32>, memref<?xi32>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$rows,
                      MemRefRankOf<[AnyType], [1]>:$pos,
                      Index:$nrows);
  let assemblyFormat = [{
    $tile `of` $tensor attr-dict `:` qualified(type($tile)) `->`
    type($rows) `,` type($pos)
  }];
  let hasVerifier = 1;
}

def Dist_SparseLocalRowsOp : Dist_RuntimeQueryOp<"sparse_local_rows"> {
  let summary = "the rows a process's sparse piece spans";
  let description = [{
    The rows of this process's piece (`distrt_spmat_local_rows`): the
    global number of its first row, their number (`nrows`: the parts' `pos`
    has one more entry), and their local numbers 0 .. nrows - 1 as an array
    of the encoding's `crd` width (`ids`, owned by the runtime), so that a
    compressed-rows (DCSR) leaf runs over the piece. With rows blocked,
    every process has ceil(rows / P) rows; with a non-zero partition
    (`"xy -> x~"`) the rows its entries span, the first and last possibly
    shared with its neighbours.

    ```mlir
    %ids, %first, %n = dist.sparse_local_rows %h of !B
        : !dist.sparse_tile -> memref<?xi32>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$ids, Index:$first,
                      Index:$nrows);
  let assemblyFormat = [{
    $tile `of` $tensor attr-dict `:` qualified(type($tile)) `->` type($ids)
  }];
  let hasVerifier = 1;
}

def Dist_SparseInPartitionOp : Dist_RuntimeOp<"sparse_in_partition"> {
  let summary = "a sparse matrix's entries in another partition (mixed partitions)";
  let description = [{
    Collective (`distrt_spmat_in_partition`): the matrix `tile` stored with
    one partition, as the computation's schedule wants the other: with
    `nonzeros`, its entries split by non-zeros; otherwise its rows blocked.
    The result is `tile` itself when it is already so partitioned, or a
    companion matrix owned by the runtime, made when first asked for after
    the entries change (only the entries whose owner differs move, and pos
    is rebuilt) and kept until they change again: SpDISTAL's mixed
    partitions. It is never freed by the program.

    ```mlir
    %n = dist.sparse_in_partition %h nonzeros : !dist.sparse_tile
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       UnitAttr:$nonzeros);
  let results = (outs Dist_SparseTileType:$result);
  let assemblyFormat = [{
    $tile (`nonzeros` $nonzeros^):(`rows`)? attr-dict `:` qualified(type($tile))
  }];
}

def Dist_SparseRowTargetsOp : Dist_RuntimeQueryOp<"sparse_row_targets"> {
  let summary = "where the sums of a process's rows go: its output block or the partial sums";
  let description = [{
    For a product that writes the rows of the process's own output block
    straight into the output (`distrt_spmat_row_targets`): over the local
    rows of the piece (`all`, `diag`) or over the compressed rows of the
    `offdiag` part, `targets[i]` is, for `i` in [`own_begin`, `own_end`),
    the row of the output block, and otherwise the row's place in the
    partial sums (`dist.sparse_partial`); `count` is their number. The rows
    in [`own_begin`, `own_end`) are those of the process's block.

    ```mlir
    %t, %b, %e, %n = dist.sparse_row_targets %h diag of !B
        : !dist.sparse_tile -> memref<?xi32>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Dist_SparsePart:$part,
                       Dist_DistTensorTypeAttr:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$targets,
                      Index:$own_begin, Index:$own_end, Index:$count);
  let assemblyFormat = [{
    $tile $part `of` $tensor attr-dict `:` qualified(type($tile)) `->`
    type($targets)
  }];
  let hasVerifier = 1;
}

def Dist_SparsePartialOp : Dist_RuntimeOp<"sparse_partial"> {
  let summary = "a zeroed buffer for the partial sums of a process's rows";
  let description = [{
    A buffer of `rows` x `cols` elements (the process's rows of
    `dist.sparse_local_rows`), owned by the runtime and zeroed by every call
    (`distrt_spmat_partial`): a product over a non-zero partition
    accumulates there, and `dist.sparse_reduce_rows` adds it into the
    output's owners. With `foreign` only the rows outside the process's
    output block are zeroed (`distrt_spmat_partial_foreign`): the product
    writes the others straight into the output.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Index:$rows, I64Attr:$cols, UnitAttr:$foreign);
  let results = (outs MemRefRankOf<[F32, F64], [1]>:$buffer);
  let assemblyFormat = [{
    $tile `rows` $rows `cols` $cols (`foreign` $foreign^)? attr-dict `:`
    qualified(type($tile)) `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Dist_SparseReduceRowsOp : Dist_RuntimeOp<"sparse_reduce_rows"> {
  let summary = "adds the partial sums of a process's rows into the output's owners";
  let description = [{
    Collective (`distrt_spmat_reduce_rows`): `y += partial`, where `partial`
    holds the process's rows (`dist.sparse_local_rows`, `cols` elements
    each) and `y` its block of the output (ceil(rows / P) rows, blocked by
    rank). Rows in the process's own block are added in place; the others
    go to the processes whose blocks hold them, which add them: a row whose
    entries are split between processes (a non-zero partition) is summed.
    With `foreign` the rows of the process's own block are not read (the
    product wrote them into `y` directly; `distrt_spmat_reduce_foreign`).
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$partial,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead, MemWrite]>:$y,
                       I64Attr:$cols, UnitAttr:$foreign);
  let assemblyFormat = [{
    $tile `,` $partial `,` $y `cols` $cols (`foreign` $foreign^)? attr-dict
    `:` qualified(type($tile)) `,` type($partial) `,` type($y)
  }];
  let hasVerifier = 1;
}

def Dist_SparseExchangeBeginOp : Dist_RuntimeOp<"sparse_exchange_begin"> {
  let summary = "starts sending the rows of a dense operand other processes need";
  let description = [{
    Starts the exchange of the plan (`distrt_spmat_exchange_begin`): `x` is
    this process's block of the dense operand, `cols` elements a row; the
    result is the ghost buffer (`ghosts` rows of `cols` elements, owned by
    the runtime), filled once `dist.sparse_exchange_end` returns. `x` must
    not change until then.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$x,
                       Index:$ghosts, I64Attr:$cols);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$buffer);
  let assemblyFormat = [{
    $tile `,` $x `ghosts` $ghosts `cols` $cols attr-dict `:`
    qualified(type($tile)) `,` type($x) `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Dist_SparseShareXOp : Dist_RuntimeOp<"sparse_share_x"> {
  let summary = "the whole dense operand in node-shared memory, when every process shares one node";
  let description = [{
    When every process of the matrix's grid runs on one node and the
    backend has shared memory (`distrt_spmat_share_x`; decided once per
    matrix, collectively, and off with `DISTRT_SPARSE_SHARED=0`), copies
    this process's block `x` of the dense operand (`cols` elements a row)
    into a node-shared array, waits until every process has done so, and
    returns that array, the whole operand (its `rows` rows in global order,
    owned by the runtime), with `shared` true: the product then reads the rows it
    needs in place, with global column numbers (`dist.sparse_part all`), and
    nothing is packed or sent. Otherwise `shared` is false and `whole` is
    empty: the product uses the exchange plan. Collective over the grid.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$x,
                       Index:$rows, I64Attr:$cols);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$whole, I1:$shared);
  let assemblyFormat = [{
    $tile `,` $x `rows` $rows `cols` $cols attr-dict `:`
    qualified(type($tile)) `,` type($x) `->` type($whole)
  }];
  let hasVerifier = 1;
}

def Dist_SparseMulAddOp : Dist_RuntimeOp<"sparse_mul_add"> {
  let summary = "y += the sparse matrix times x, in the runtime (device tiles)";
  let description = [{
    `y += B * x` with the whole of the product in the runtime
    (`distrt_spmat_mul_add`): what `dist-materialize-spmd` emits for a
    sparse product when the dense tiles live in device memory (`device=gpu`,
    or a machine of GPUs), whose leaves the host cannot run. `x` is this
    process's block of the dense operand (`cols` elements a row), or with
    `x_whole` the whole of it (replicated); `y` this process's rows of the
    output. On device memory the runtime runs cuSPARSE (the NCCL backend),
    the blocked `x` travelling through the matrix's exchange plan; on host
    memory its own loops. Collective over the grid unless `x_whole`.

    ```mlir
    dist.sparse_mul_add %B, %x, %y cols 1 : !dist.sparse_tile<...>, memref<?xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$x,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead, MemWrite]>:$y,
                       I64Attr:$cols, UnitAttr:$x_whole);
  let assemblyFormat = [{
    $tile `,` $x `,` $y `cols` $cols (`whole` $x_whole^)? attr-dict `:`
    qualified(type($tile)) `,` type($x) `,` type($y)
  }];
  let hasVerifier = 1;
}

def Dist_SparseExchangeEndOp : Dist_RuntimeOp<"sparse_exchange_end"> {
  let summary = "waits for the exchange of a sparse matrix's plan";
  let description = [{
    Completes the exchange `dist.sparse_exchange_begin` started
    (`distrt_spmat_exchange_end`).
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile);
  let assemblyFormat = "$tile attr-dict `:` qualified(type($tile))";
}

def Dist_SparseGatherOp : Dist_RuntimeOp<"sparse_gather"> {
  let summary = "gathers a sparse tensor, dense, on one process (check)";
  let description = [{
    Collective: process `root` of the grid receives the whole matrix dense
    and row-major in `whole` (`distrt_spmat_gather_dense`), for the
    reference of `--check`.
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Arg<AnyMemRef, "", [MemWrite]>:$whole,
                       I64Attr:$root);
  let assemblyFormat = [{
    $tile `into` $whole `root` $root attr-dict `:` qualified(type($tile)) `,`
    type($whole)
  }];
}

def Dist_SparsePatternOfOp : Dist_RuntimeOp<"sparse_pattern_of"> {
  let summary = "gives a sparse matrix another's pattern (SDDMM's output)";
  let description = [{
    Collective (`distrt_spmat_pattern_of`): `tile`'s entries become those
    of `source` (the same rows on every process, the same positions and
    coordinates, values 0), unless `tile` already has that pattern: the
    pattern is copied when `source`'s entries change (or `tile`'s), not at
    every call. The two must have one shape, partition, index widths and
    element type. The output of an SDDMM, `A(i,j) = B(i,j) * C(i,k) *
    D(k,j)`, has B's pattern and its own values. When `source` has order 3,
    `tile` (a matrix of its first two extents) gets its (i, j) fibers as
    entries: the output of an SpTTV, `A(i,j) = B(i,j,k) * c(k)`.

    ```mlir
    dist.sparse_pattern_of %a from %b : !dist.sparse_tile, !dist.sparse_tile
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<Dist_SparseTileType, "", [MemRead]>:$source);
  let assemblyFormat = [{
    $tile `from` $source attr-dict `:` qualified(type($tile)) `,`
    qualified(type($source))
  }];
}

def Dist_SparseFibersOp : Dist_RuntimeQueryOp<"sparse_fibers"> {
  let summary = "views of a process's piece of a sparse tensor of order 3";
  let description = [{
    The piece of an order-3 sparse tensor (CSF with a dense root,
    `distrt_spmat_fibers`) as memrefs into the runtime's storage: level 1,
    the (i, j) fibers, as CSR over the piece's rows (`pos`, one more entry
    than `dist.sparse_local_rows`'s rows, and `crd`, the j of each fiber);
    level 2, each fiber's entries (`pos2`, one more entry than `nfibers`,
    and `crd2`, the k of each entry); the entries' `values`. The element
    types are the encoding's `pos` and `crd` widths (`index` for 0) and the
    tensor's.

    ```mlir
    %pos, %crd, %pos2, %crd2, %val, %nf = dist.sparse_fibers %h of !B
        : !dist.sparse_tile -> memref<?xi32>, memref<?xi32>, memref<?xi32>,
                               memref<?xi32>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Dist_DistTensorTypeAttr:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$pos,
                      MemRefRankOf<[AnyType], [1]>:$crd,
                      MemRefRankOf<[AnyType], [1]>:$pos2,
                      MemRefRankOf<[AnyType], [1]>:$crd2,
                      MemRefRankOf<[AnyType], [1]>:$values,
                      Index:$nfibers);
  let assemblyFormat = [{
    $tile `of` $tensor attr-dict `:` qualified(type($tile)) `->`
    type($pos) `,` type($crd) `,` type($pos2) `,` type($crd2) `,`
    type($values)
  }];
  let hasVerifier = 1;
}

def Dist_SparseEntriesOp : Dist_RuntimeOp<"sparse_entries"> {
  let summary = "an order-3 tensor's entries split equally (all levels fused)";
  let description = [{
    Collective (`distrt_spmat_in_partition` with `DISTRT_SPMAT_ENTRIES`):
    the order-3 sparse tensor `tile`'s entries, numbered row-major, cut in
    blocks of ceil(G / P), as a schedule that fuses all three levels wants
    (SpDISTAL's `fuse(i, j, f), fuse(f, k, g), pos(g, gp, B)`). The result
    is a companion owned by the runtime, made when first asked for after
    the entries change (only the entries whose owner differs move) and kept
    until they change again; a fiber or a row may be split between
    neighbouring processes. It is never freed by the program.

    ```mlir
    %e = dist.sparse_entries %h : !dist.sparse_tile
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile);
  let results = (outs Dist_SparseTileType:$result);
  let assemblyFormat = "$tile attr-dict `:` qualified(type($tile))";
}

def Dist_SparseFiberPartialOp : Dist_RuntimeOp<"sparse_fiber_partial"> {
  let summary = "a zeroed buffer for the partial sums of a process's fibers";
  let description = [{
    A buffer of `nfibers` elements, one per fiber of the process's piece of
    an order-3 tensor (`dist.sparse_fibers`), owned by the runtime and
    zeroed by every call (`distrt_spmat_fiber_partial`): a product over the
    entries partition (`dist.sparse_entries`) sums each fiber's entries
    there, and `dist.sparse_reduce_fibers` adds the sums of a fiber split
    between processes. With `foreign` (after `dist.sparse_fiber_runs`,
    `distrt_spmat_fiber_partial_foreign`) only the fibers outside the own
    run are zeroed: the product writes those straight into the output.

    ```mlir
    %p = dist.sparse_fiber_partial %e fibers %nf
        : !dist.sparse_tile -> memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Index:$nfibers, UnitAttr:$foreign);
  let results = (outs MemRefRankOf<[F32, F64], [1]>:$buffer);
  let assemblyFormat = [{
    $tile `fibers` $nfibers (`foreign` $foreign^)? attr-dict `:`
    qualified(type($tile)) `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Dist_SparseReduceFibersOp : Dist_RuntimeOp<"sparse_reduce_fibers"> {
  let summary = "sums the partial sums of fibers into their owners' blocks";
  let description = [{
    Collective (`distrt_spmat_reduce_fibers`): `tile` is the entries
    companion (`dist.sparse_entries`) of an order-3 tensor stored by
    fibers (`"xyz -> x~"`), `partial` the sums of its piece's fibers
    (`dist.sparse_fiber_partial`), and `y` this process's block of a vector
    over the tensor's F fibers blocked in ceil(F / P), the fibers the
    stored piece holds: the values of SpTTV's output, whose entries are
    those fibers. `y` is set to the sum over the processes of the partial
    sums: its own first, then, in increasing rank, those of the processes
    whose entries share its fibers. With `foreign`
    (`distrt_spmat_reduce_fibers_foreign`, after `dist.sparse_fiber_runs`)
    the process's own run is already in `y`: only the others' sums are
    added, and `partial`'s fibers outside the own run sent.

    ```mlir
    dist.sparse_reduce_fibers %e, %p into %vals
        : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$partial,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead, MemWrite]>:$y,
                       UnitAttr:$foreign);
  let assemblyFormat = [{
    $tile `,` $partial `into` $y (`foreign` $foreign^)? attr-dict `:`
    qualified(type($tile)) `,` type($partial) `,` type($y)
  }];
  let hasVerifier = 1;
}

def Dist_SparseFiberRunsOp : Dist_RuntimeOp<"sparse_fiber_runs"> {
  let summary = "the fibers a process writes straight into its output block";
  let description = [{
    Collective the first time after the entries change
    (`distrt_spmat_fiber_runs`): for the entries companion `tile` of a
    tensor stored by fibers and `y`, this process's block of a vector over
    the tensor's fibers (SpTTV's output values), zeroes `y` and gives the
    piece's fibers [`own_begin`, `own_end`) that lie in `y`'s block, local
    fiber q at `y[q - own_begin + y_offset]`. A product writes those
    straight into `y` and the fibers before and after them into
    `dist.sparse_fiber_partial`'s buffer, which `dist.sparse_reduce_fibers
    ... foreign` sends to their owners.

    ```mlir
    %b, %e, %o = dist.sparse_fiber_runs %h, %vals
        : !dist.sparse_tile, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemWrite]>:$y);
  let results = (outs Index:$own_begin, Index:$own_end, Index:$y_offset);
  let assemblyFormat = [{
    $tile `,` $y attr-dict `:` qualified(type($tile)) `,` type($y)
  }];
}

def Dist_SparseCheckResultOp : Dist_RuntimeOp<"sparse_check_result"> {
  let summary = "compares a sparse tensor with a dense reference (check)";
  let description = [{
    Collective (`distrt_spmat_check_result`): the sparse matrix `tile` is
    gathered dense on rank 0 of its grid and compared there with
    `reference` (the whole matrix, row-major, read on rank 0 only): every
    element, stored or not, within relative error `tolerance`. Rank 0
    prints one PASS or FAIL line with `label`, as `dist.check_result`
    does for dense tensors.

    ```mlir
    dist.sparse_check_result %h against %ref label "A(i,j) = ..."
        tolerance 1.0e-12 : !dist.sparse_tile, memref<8x8xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemRead]>:$tile,
                       Arg<AnyMemRef, "", [MemRead]>:$reference,
                       StrAttr:$label, F64Attr:$tolerance);
  let assemblyFormat = [{
    $tile `against` $reference `label` $label `tolerance` $tolerance attr-dict
    `:` qualified(type($tile)) `,` type($reference)
  }];
}

def Dist_SparseReserveOp : Dist_RuntimeOp<"sparse_reserve"> {
  let summary = "room for a sparse matrix's new entries (a sparse output)";
  let description = [{
    Collective (`distrt_spmat_reserve`): `tile`'s entries are dropped and
    its piece gets the rows of `like`'s (same shape, partition, widths and
    dtype), positions for them and room for `capacity` coordinates and
    values, returned as memrefs into the runtime's storage, which a
    computation fills and `dist.sparse_commit` completes. The output of a
    sum of sparse matrices is written so.

    ```mlir
    %pos, %crd, %val = dist.sparse_reserve %a like %b capacity %n
        : !dist.sparse_tile, !dist.sparse_tile -> memref<?xi32>, memref<?xi32>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Arg<Dist_SparseTileType, "", [MemRead]>:$like,
                       Index:$capacity);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$pos,
                      MemRefRankOf<[AnyType], [1]>:$crd,
                      MemRefRankOf<[AnyType], [1]>:$values);
  let assemblyFormat = [{
    $tile `like` $like `capacity` $capacity attr-dict `:`
    qualified(type($tile)) `,` qualified(type($like)) `->` type($pos) `,`
    type($crd) `,` type($values)
  }];
}

def Dist_SparseCommitOp : Dist_RuntimeOp<"sparse_commit"> {
  let summary = "completes a sparse matrix's entries written after reserve";
  let description = [{
    Collective (`distrt_spmat_commit`): the piece `dist.sparse_reserve`
    made room for holds `count` entries (at most the room), and the matrix
    counts its entries again across the processes.

    ```mlir
    dist.sparse_commit %a count %k : !dist.sparse_tile
    ```
  }];
  let arguments = (ins Arg<Dist_SparseTileType, "", [MemWrite]>:$tile,
                       Index:$count);
  let assemblyFormat = [{
    $tile `count` $count attr-dict `:` qualified(type($tile))
  }];
}

#endif // DIST_SPARSE_OPS_TD
