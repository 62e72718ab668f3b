//===- DistTransferOps.td - SPMD transfers, boxes, tile views -*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Included by DistOps.td. The SPMD ops of transfers, boxes and tile views:
// what dist-materialize-spmd emits for a dist.compute and
// convert-dist-to-runtime lowers to distrt calls
// (lib/Conversion/DistToRuntime/TransferToRuntime.cpp). Verifiers are in
// lib/Dialect/Dist/IR/TransferOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_TRANSFER_OPS_TD
#define DIST_TRANSFER_OPS_TD

include "mlir/Interfaces/ViewLikeInterface.td"

//===----------------------------------------------------------------------===//
// The rank's place in its grid
//===----------------------------------------------------------------------===//

// The first use of a grid, or of a group of its axes, creates the
// communicators (collectively): the ops below read the communication
// resource, so that they are never speculated, while unused ones may go.
def Dist_GridCoordOp : Dist_Op<"grid_coord", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Dist_CommResource>]>]> {
  let summary = "this processor's coordinate along one grid axis";
  let description = [{
    Yields the coordinate of the running processor along `axis` of the grid
    `grid` (0 to the axis' extent - 1). Processor coordinates map to ranks
    row-major, as for `dist.grid`.

    ```mlir
    dist.grid @m [2, 3]
    %col = dist.grid_coord on @m axis 1 : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid, I64Attr:$axis);
  let results = (outs Index:$coord);
  let assemblyFormat = "`on` $grid `axis` $axis attr-dict `:` type($coord)";
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid, "int64_t":$axis), [{
      build($_builder, $_state, $_builder.getIndexType(), grid,
            $_builder.getI64IntegerAttr(axis));
    }]>
  ];
}

def Dist_AxesRankOp : Dist_Op<"axes_rank", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Dist_CommResource>]>]> {
  let summary = "this processor's index in the group of some grid axes";
  let description = [{
    Yields the index of the running processor in its group over `axes`: the
    processors that differ from it only in the coordinates of `axes`,
    numbered row-major over those axes in increasing axis order (the
    highest axis varies fastest), the numbering the collectives' `root`
    uses.

    ```mlir
    %me = dist.axes_rank on @m axes [0, 1] : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid, DenseI64ArrayAttr:$axes);
  let results = (outs Index:$rank);
  let assemblyFormat = "`on` $grid `axes` $axes attr-dict `:` type($rank)";
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid,
                   "::llvm::ArrayRef<int64_t>":$axes), [{
      build($_builder, $_state, $_builder.getIndexType(), grid,
            $_builder.getDenseI64ArrayAttr(axes));
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Local tiles and boxes
//===----------------------------------------------------------------------===//

// An op on the local tile of a distributed tensor: `tensor` is the tensor's
// type (its layout says which elements the tile holds, on which grid).
class Dist_OnTileOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let hasVerifier = 1;
}

def Dist_ZeroTileOp : Dist_OnTileOp<"zero_tile"> {
  let summary = "sets every element of a local tile to zero";
  let description = [{
    Stores zero into every element the running processor holds of a tensor
    of type `tensor`, in its local tile `tile` (a flat row-major buffer of
    the tile's elements).

    ```mlir
    dist.zero_tile %tile as !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
        : memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemWrite]>:$tile,
                       TypeAttrOf<Dist_StaticTensorType>:$tensor);
  let assemblyFormat = "$tile `as` $tensor attr-dict `:` type($tile)";
}

// An op on the box [lo, lo + sizes) of a distributed tensor (one bound per
// dimension, global indices) in the rank's tile.
class Dist_OnBoxOp<string mnemonic, list<Trait> traits = []>
    : Dist_OnTileOp<mnemonic, !listconcat(traits, [AttrSizedOperandSegments])>;

def Dist_TileViewOp : Dist_OnBoxOp<"tile_view", [
    Pure, ViewLikeOpInterface]> {
  let summary = "a box of a tensor read in place from the local tile";
  let description = [{
    When the box `[lo, lo + sizes)` of a tensor of type `tensor` (one bound
    per dimension, global indices) is one contiguous row-major block of the
    running processor's tile -- the whole tile, or whole rows of it --
    `inside` is true and `view` is that block: a view of `tile` at the
    block's offset, holding the box row-major, read and written in place.
    Otherwise `inside` is false and `view` (a view of `tile` at offset 0)
    must not be accessed; the box then needs a buffer and a
    `dist.copy_box`. The test runs at run time (the tile's shape depends on
    the processor and the box on the loop values).

    ```mlir
    %view, %inside = dist.tile_view %tile[%i, %c0] [%c8, %c16]
        as !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
        : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
    ```

    The view has a dynamic size (the box's element count) and offset and
    unit stride.
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [1]>:$tile,
                       Variadic<Index>:$lo,
                       Variadic<Index>:$sizes,
                       TypeAttrOf<Dist_StaticTensorType>:$tensor);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$view, I1:$inside);
  let assemblyFormat = [{
    $tile `[` $lo `]` `[` $sizes `]` `as` $tensor attr-dict
    `:` type($tile) `->` type($view)
  }];
  let builders = [
    // The view type of a tile of `tensor`'s element type.
    OpBuilder<(ins "::mlir::Value":$tile, "::mlir::ValueRange":$lo,
                   "::mlir::ValueRange":$sizes,
                   "::mlir::dist::DistTensorType":$tensor), [{
      auto viewTy = ::mlir::MemRefType::get(
          {::mlir::ShapedType::kDynamic}, tensor.getElementType(),
          ::mlir::StridedLayoutAttr::get($_builder.getContext(),
                                         ::mlir::ShapedType::kDynamic, {1}));
      build($_builder, $_state, viewTy, $_builder.getI1Type(), tile, lo,
            sizes, ::mlir::TypeAttr::get(tensor));
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::Value getViewSource() { return getTile(); }
  }];
}

def Dist_CopyBoxOp : Dist_OnBoxOp<"copy_box"> {
  let summary = "copies a box of the local tile into a buffer";
  let description = [{
    Copies the box `[lo, lo + sizes)` of a tensor of type `tensor` (one
    bound per dimension, global indices) from the running processor's tile
    `tile` into `buffer`, row-major from its first element. The processor
    must hold the whole box (fatal at run time otherwise); nothing is
    communicated. `buffer` holds at least the box's elements. An order-0
    tensor has no bounds: its box is its one element.

    ```mlir
    dist.copy_box %tile[%i, %c0] [%c8, %c16] into %buf
        as !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
        : memref<?xf64>, memref<128xf64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$tile,
                       Variadic<Index>:$lo,
                       Variadic<Index>:$sizes,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemWrite]>:$buffer,
                       TypeAttrOf<Dist_StaticTensorType>:$tensor);
  let assemblyFormat = [{
    $tile `[` $lo `]` `[` $sizes `]` `into` $buffer `as` $tensor attr-dict
    `:` type($tile) `,` type($buffer)
  }];
}

def Dist_AddBoxOp : Dist_OnBoxOp<"add_box"> {
  let summary = "adds a buffer into a box of the local tile";
  let description = [{
    Adds `buffer` (the box `[lo, lo + sizes)` of a tensor of type `tensor`,
    row-major) element-wise into the running processor's tile `tile`. The
    processor must hold the whole box (fatal at run time otherwise); nothing
    is communicated.

    ```mlir
    dist.add_box %buf into %tile[%i, %c0] [%c8, %c16]
        as !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
        : memref<128xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemRead]>:$buffer,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemRead, MemWrite]>:$tile,
                       Variadic<Index>:$lo,
                       Variadic<Index>:$sizes,
                       TypeAttrOf<Dist_StaticTensorType>:$tensor);
  let assemblyFormat = [{
    $buffer `into` $tile `[` $lo `]` `[` $sizes `]` `as` $tensor attr-dict
    `:` type($buffer) `,` type($tile)
  }];
}

def Dist_FetchBoxOp : Dist_OnBoxOp<"fetch_box", [
    MemoryEffects<[MemRead<Dist_CommResource>,
                   MemWrite<Dist_CommResource>]>]> {
  let summary = "every processor fetches a box of a tensor from its owners";
  let description = [{
    The general exchange, collective over the tensor's grid: every processor
    of the grid names the box `[lo, lo + sizes)` of the tensor (of type
    `tensor`, whose local tile is `tile`) it needs, and receives it in
    `buffer`, row-major, from the processors that hold its elements; each
    processor serves the requests for what its tile holds. Every processor
    of the grid takes part, with its own box (possibly empty).

    ```mlir
    dist.fetch_box %tile[%lo0, %lo1] [%s0, %s1] into %buf
        as !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> yx">>
        : memref<?xf64>, memref<256xf64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$tile,
                       Variadic<Index>:$lo,
                       Variadic<Index>:$sizes,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemWrite]>:$buffer,
                       TypeAttrOf<Dist_StaticTensorType>:$tensor);
  let assemblyFormat = [{
    $tile `[` $lo `]` `[` $sizes `]` `into` $buffer `as` $tensor attr-dict
    `:` type($tile) `,` type($buffer)
  }];
}

def Dist_AccumulateBoxOp : Dist_OnBoxOp<"accumulate_box", [
    MemoryEffects<[MemRead<Dist_CommResource>,
                   MemWrite<Dist_CommResource>]>]> {
  let summary = "adds every processor's box of partial results into its owners";
  let description = [{
    The general exchange for results, collective over the tensor's grid:
    every processor contributes `buffer`, partial results for the box
    `[lo, lo + sizes)` of the tensor (of type `tensor`, whose local tile is
    `tile`), row-major; each contribution is added into the tiles of every
    processor that holds its elements (all replicas), in rank order, so
    results are deterministic.

    ```mlir
    dist.accumulate_box %buf into %tile[%lo0, %lo1] [%s0, %s1]
        as !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> yx">>
        : memref<256xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemRead]>:$buffer,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemRead, MemWrite]>:$tile,
                       Variadic<Index>:$lo,
                       Variadic<Index>:$sizes,
                       TypeAttrOf<Dist_StaticTensorType>:$tensor);
  let assemblyFormat = [{
    $buffer `into` $tile `[` $lo `]` `[` $sizes `]` `as` $tensor attr-dict
    `:` type($buffer) `,` type($tile)
  }];
}

def Dist_CheckDistinctOp : Dist_Op<"check_distinct"> {
  let summary = "stops the program when an input tile is the output's";
  let description = [{
    A run-time check of a computation: when `output` and `input` are the same
    local tile (a function called with one tensor for two of its
    parameters, which the verifier cannot see), every rank stops with a
    message that names the computation `statement` and the input `name`.
    Nothing happens otherwise.

    ```mlir
    dist.check_distinct %a, %b named "B" in "f.mlir:3:3: A(i) = B(i)"
        : memref<?xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [1]>:$output,
                       MemRefRankOf<[AnyType], [1]>:$input,
                       StrAttr:$name,
                       StrAttr:$statement);
  let assemblyFormat = [{
    $output `,` $input `named` $name `in` $statement attr-dict
    `:` type($output) `,` type($input)
  }];
}

//===----------------------------------------------------------------------===//
// Permutations and asynchronous transfers
//===----------------------------------------------------------------------===//

def Dist_PermuteOp : Dist_CommOp<"permute"> {
  let summary = "one step of a permutation between grid ranks";
  let description = [{
    Sends `send` (all its elements) to grid rank `dest` and receives
    `recv` (all its elements) from grid rank `source`; -1 means no partner
    (nothing is sent, or nothing received). A rank that is its own partner
    copies `send` into `recv` (their sizes then agree). Every rank of the
    permutation takes part; no cycle of partners deadlocks.

    ```mlir
    dist.permute %out to %dst, %in from %src on @m
        : memref<?xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$send,
                       Index:$dest,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemWrite]>:$recv,
                       Index:$source);
  let assemblyFormat = [{
    $send `to` $dest `,` $recv `from` $source `on` $grid attr-dict
    `:` type($send) `,` type($recv)
  }];
  let hasVerifier = 1;
}

// A non-blocking transfer: starts it and yields its request; the buffers
// must stay untouched until a dist.wait on the request.
class Dist_StartTransferOp<string mnemonic> : Dist_CommOp<mnemonic> {
  let results = (outs Dist_RequestType:$request);
  // Builders without the result type (always !dist.request).
  code requestType = "$_builder.getType<::mlir::dist::RequestType>()";
}

def Dist_StartBroadcastOp : Dist_StartTransferOp<"start_broadcast"> {
  let summary = "starts a broadcast over grid axes";
  let description = [{
    The non-blocking `dist.broadcast`: starts copying the buffer of group
    member `root` into the buffers of the others (groups over `axes`) and
    yields the request that `dist.wait` completes.

    ```mlir
    %req = dist.start_broadcast %buf on @m axes [1] root %r : memref<?xf64>
    // ... work that does not touch %buf ...
    dist.wait %req
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemRead, MemWrite]>:$buffer,
                       Index:$root);
  let assemblyFormat = [{
    $buffer `on` $grid `axes` $axes `root` $root attr-dict `:` type($buffer)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid,
                   "::llvm::ArrayRef<int64_t>":$axes, "::mlir::Value":$buffer,
                   "::mlir::Value":$root), [{
      build($_builder, $_state, }] # requestType # [{, grid,
            $_builder.getDenseI64ArrayAttr(axes), buffer, root);
    }]>
  ];
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_StartShiftOp : Dist_StartTransferOp<"start_shift"> {
  let summary = "starts a systolic shift along one grid axis";
  let description = [{
    The non-blocking, out-of-place `dist.shift`: once the request completes,
    `output` holds the `input` of the processor `offset` coordinates further
    along `axis` (periodically). Both buffers hold the same number of
    elements and do not overlap.

    ```mlir
    %req = dist.start_shift %cur into %next on @m axis 1 offset 1
        : memref<?xf64> into memref<?xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       I64Attr:$axis,
                       I64Attr:$offset,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemWrite]>:$output);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axis` $axis `offset` $offset attr-dict
    `:` type($input) `into` type($output)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid, "int64_t":$axis,
                   "int64_t":$offset, "::mlir::Value":$input,
                   "::mlir::Value":$output), [{
      build($_builder, $_state, }] # requestType # [{, grid,
            $_builder.getI64IntegerAttr(axis),
            $_builder.getI64IntegerAttr(offset), input, output);
    }]>
  ];
  let hasVerifier = 1;
}

def Dist_StartAllGatherOp : Dist_StartTransferOp<"start_allgather"> {
  let summary = "starts an all-gather over grid axes";
  let description = [{
    The non-blocking `dist.allgather`: once the request completes, `output`
    holds the `input`s of the group (over `axes`) in member order.

    ```mlir
    %req = dist.start_allgather %piece into %buf on @m axes [0]
        : memref<?xf64> into memref<?xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$axes,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$input,
                       Arg<MemRefRankOf<[AnyType], [1]>, "",
                           [MemWrite]>:$output);
  let assemblyFormat = [{
    $input `into` $output `on` $grid `axes` $axes attr-dict
    `:` type($input) `into` type($output)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid,
                   "::llvm::ArrayRef<int64_t>":$axes, "::mlir::Value":$input,
                   "::mlir::Value":$output), [{
      build($_builder, $_state, }] # requestType # [{, grid,
            $_builder.getDenseI64ArrayAttr(axes), input, output);
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = commonExtraDecl;
}

def Dist_StartPermuteOp : Dist_StartTransferOp<"start_permute"> {
  let summary = "starts one step of a permutation between grid ranks";
  let description = [{
    The non-blocking `dist.permute` (same operands and rules).

    ```mlir
    %req = dist.start_permute %out to %dst, %in from %src on @m
        : memref<?xf64>, memref<?xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$send,
                       Index:$dest,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemWrite]>:$recv,
                       Index:$source);
  let assemblyFormat = [{
    $send `to` $dest `,` $recv `from` $source `on` $grid attr-dict
    `:` type($send) `,` type($recv)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid, "::mlir::Value":$send,
                   "::mlir::Value":$dest, "::mlir::Value":$recv,
                   "::mlir::Value":$source), [{
      build($_builder, $_state, }] # requestType # [{, grid, send, dest,
            recv, source);
    }]>
  ];
  let hasVerifier = 1;
}

def Dist_NullRequestOp : Dist_Op<"null_request", [Pure]> {
  let summary = "the request of no transfer";
  let description = [{
    A request that stands for no transfer in flight (MPI's null request):
    `dist.wait` on it does nothing. It lets a request flow through
    `scf.if` results and `scf.for` iteration arguments where only some
    paths start a transfer.

    ```mlir
    %none = dist.null_request
    ```
  }];
  let results = (outs Dist_RequestType:$request);
  let assemblyFormat = "attr-dict";
  let builders = [
    OpBuilder<(ins), [{
      build($_builder, $_state,
            $_builder.getType<::mlir::dist::RequestType>());
    }]>
  ];
}

def Dist_WaitOp : Dist_Op<"wait", [
    MemoryEffects<[MemRead<Dist_CommResource>, MemWrite<Dist_CommResource>,
                   MemWrite]>]> {
  let summary = "completes a transfer started by a dist.start_* op";
  let description = [{
    Blocks until the transfer of `request` is complete: its buffers hold
    what it received and may be reused. A request is waited for at most
    once; waiting for the null request (`dist.null_request`) does nothing.

    ```mlir
    dist.wait %req
    ```
  }];
  let arguments = (ins Dist_RequestType:$request);
  let assemblyFormat = "$request attr-dict";
}

#endif // DIST_TRANSFER_OPS_TD
