//===- DistOneSidedOps.td - the one-sided matrix product -----*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Included by DistOps.td. The SPMD op the one-sided lowering of
// dist.compute emits (lib/Transforms/SPMD/OneSidedCompute.cpp) and
// convert-dist-to-runtime lowers to distrt_onesided_matmul; its verifier
// lives in lib/Dialect/Dist/IR/TransferOps.cpp; docs/onesided.md is the
// user's guide.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_ONESIDED_OPS_TD
#define DIST_ONESIDED_OPS_TD

def Dist_OneSidedMatmulOp : Dist_Op<"onesided_matmul", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Dist_CommResource>,
                   MemWrite<Dist_CommResource>]>]> {
  let summary = "C (+)= A * B by one-sided gets and accumulates (Slicing)";
  let description = [{
    Collective over the grid of the three tensors: every process multiplies
    the slices that meet the tile it holds of the `stationary` tensor
    (seed 004's universal one-sided algorithm). `a`, `b` and `c` are the
    running process's tiles of the distributed matrices `tensor_a`
    (M x K), `tensor_b` (K x N) and `tensor_c` (M x N), which may have any
    layouts. The slices are the cells of the three layouts'
    block boundaries along i, k and j; a process gets the slices it needs
    of the moving tensors from the nearest copy with one-sided gets
    (`MPI_Rget`), keeping `prefetch` gets in flight ahead of the GEMM it
    runs, and adds partial results of a moving C into one copy of C with
    `MPI_Raccumulate`; copies of a replicated tensor split the work and a
    replicated C is summed across its copies at the end. With `offset`,
    each process starts at a different slice (the iteration offset) so
    that owners are not all read at once. Without `accumulate`, C is
    overwritten (`=`); with it, the product is added (`+=`).

    The three tensors may be on different grids of the same processes (as
    many of them; rank r is the same process in every grid). With
    `batch`, a 1-D tensor type on C's grid whose extent is the number of
    products, each tile holds its process's batch elements one after the
    other (each one a tile of the matrix's layout) and the op multiplies
    them one by one (the matricized contraction `C(b,i,j) = A(b,i,k) *
    B(b,k,j)`); the batch's layout says which batch elements a process has
    (all of them when it is whole, else those of its coordinates on the
    batch's grid axes, which A, B and C then share).

    **Dynamic extents.** The matrix types may have `?` extents (no batch
    then): `extents` gives their values at run time, one `i64` per `?` of
    `tensor_a`, `tensor_b` and `tensor_c` in that order (dimension order
    within each), and `operand_names` (three strings) names each operand
    in the run-time errors. The lowering fills the layout descriptors in
    at run time and checks each extent (at least 1) and that each tile
    holds the process's part (`distrt_layout_with_extents`,
    `distrt_layout_check_tile`).

    ```mlir
    dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
        as !dist.tensor<64x32xf64, #dist.layout<@m, "xy -> x">>,
           !dist.tensor<32x48xf64, #dist.layout<@m, "xy -> y">>,
           !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> xy">>
        : memref<?xf64>, memref<?xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$a,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "", [MemRead]>:$b,
                       Arg<MemRefRankOf<[F32, F64], [1]>, "",
                           [MemRead, MemWrite]>:$c,
                       UnitAttr:$accumulate,
                       Dist_Stationary:$stationary,
                       I64Attr:$prefetch,
                       BoolAttr:$offset,
                       TypeAttrOf<Dist_TensorType>:$tensor_a,
                       TypeAttrOf<Dist_TensorType>:$tensor_b,
                       TypeAttrOf<Dist_TensorType>:$tensor_c,
                       OptionalAttr<TypeAttrOf<Dist_TensorType>>:$tensor_batch,
                       Variadic<I64>:$extents,
                       OptionalAttr<StrArrayAttr>:$operand_names);
  let assemblyFormat = [{
    $a `,` $b (`accumulate` $accumulate^)? `into` $c `stationary` $stationary
    `prefetch` $prefetch `offset` $offset `as` $tensor_a `,` $tensor_b `,`
    $tensor_c (`batch` $tensor_batch^)? (`extents` `(` $extents^ `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

def Dist_TensorExtentOp : Dist_Op<"tensor_extent", [Pure]> {
  let summary = "an extent of a distributed tensor, known at run time";
  let description = [{
    Extent `dim` of `tensor` as an `i64`. The one-sided lowering emits it
    for the dynamic (`?`) extents of its matrices; `dist-tensors-to-tiles`
    replaces it by the extent's `i64` argument of the function whose
    argument the tensor is (an error for any other tensor), or by a
    constant for a static extent.

    ```mlir
    %m = dist.tensor_extent %A[0] : !dist.tensor<?x64xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let arguments = (ins Dist_DenseTensorType:$tensor, I64Attr:$dim);
  let results = (outs I64:$extent);
  let assemblyFormat = [{
    $tensor `[` $dim `]` attr-dict `:` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

#endif // DIST_ONESIDED_OPS_TD
