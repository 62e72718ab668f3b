//===- DistTypes.td - dist dialect types -------------------*- tablegen -*-===//

#ifndef DIST_TYPES_TD
#define DIST_TYPES_TD

include "DistTensor/Dialect/Dist/IR/DistBase.td"
include "DistTensor/Dialect/Dist/IR/DistAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Dist_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Dist_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Dist_TensorType : Dist_Type<"DistTensor", "tensor"> {
  let summary = "a tensor distributed over a machine";
  let description = [{
    A global tensor of a shape and element type (`f32`, `f64`, `i32` or
    `i64`) whose elements are spread over the processors of a machine as
    its layout says. An extent may be `?` (dynamic: given at call time)
    only on dense tensors that are arguments of exported functions and are
    used by one-sided matrix products (`dist.compute` with a `stationary`
    schedule); every other op rejects dynamic extents (docs/interop.md,
    "Dynamic shapes"). At most 8 dimensions (the runtime's `DISTRT_MAX_DIMS`)
    and 2^50 elements. Values of this type are handles to distributed
    storage (like a memref): operations read and write them in place.

    ```mlir
    !dist.tensor<1024x1024xf64, #dist.layout<@m, "xy -> xy">>
    ```

    **Sparse tensors.** An
    optional upstream `#sparse_tensor.encoding` gives the local storage
    format of each process's piece: its levels (`dense`, `compressed`,
    `compressed(nonunique)` followed by `singleton` for coordinate lists),
    their order (`dimToLvl`, a permutation: CSR, CSC, DCSR, CSF) and the
    `pos` / `crd` widths (0 for index, 32 or 64). The layout then
    partitions the tensor's *universe*: a partitioned dimension is split
    by coordinate range (blocked), whether its level is dense or
    compressed (SpDISTAL's `T_xy ↦_x M`); see docs/sparse.md.

    ```mlir
    // CSR, rows split over 4 processes, 32-bit positions and coordinates.
    !dist.tensor<1000x1000xf64, #dist.layout<@m, "xy -> x">,
                 #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                          posWidth = 32, crdWidth = 32}>>
    ```

    Sparse tensors are created with `dist.alloc`, filled with `dist.load`
    (matrix files) or `dist.generate`, written with `dist.store`
    (MatrixMarket), and computed with in `dist.compute` (sparse matrix
    times dense vector or matrix, CSR rows blocked over a 1-D grid; the
    verifier says what else it does not lower yet). `dist.fill`,
    `dist.redistribute` and `dist.local_tile` take dense tensors only.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        "LayoutAttr":$layout,
                        OptionalParameter<
                            "::mlir::sparse_tensor::SparseTensorEncodingAttr",
                            "local sparse storage format (none: dense)">
                            :$encoding);
  let builders = [
    // A dense tensor.
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape,
                     "::mlir::Type":$elementType,
                     "::mlir::dist::LayoutAttr":$layout), [{
      return $_get($_ctxt, shape, elementType, layout,
                   ::mlir::sparse_tensor::SparseTensorEncodingAttr());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// Whether the tensor is stored sparse (has an encoding).
    bool isSparse() const { return static_cast<bool>(getEncoding()); }
    /// Whether every extent is known (no `?`).
    bool hasStaticShape() const {
      return !::llvm::any_of(getShape(), ::mlir::ShapedType::isDynamic);
    }
    /// Whether extent `d` is given at call time (`?`).
    bool isDynamicDim(int64_t d) const {
      return ::mlir::ShapedType::isDynamic(getShape()[d]);
    }
    int64_t getNumDynamicDims() const {
      return ::llvm::count_if(getShape(), ::mlir::ShapedType::isDynamic);
    }
    /// The number of elements; the shape must be static.
    int64_t getNumElements() const {
      assert(hasStaticShape() && "dynamic extents have no element count");
      int64_t n = 1;
      for (int64_t e : getShape())
        n *= e;
      return n;
    }
  }];
}

// Operands of the ops that store or compute with tensors: dense only until
// sparse tensors are lowered (issue 14).
// A sparse distributed tensor (one with an encoding).
def Dist_SparseTensorType : Type<
    And<[CPred<"::llvm::isa<::mlir::dist::DistTensorType>($_self)">,
         CPred<"::llvm::cast<::mlir::dist::DistTensorType>($_self)"
               ".isSparse()">]>,
    "sparse distributed tensor", "::mlir::dist::DistTensorType">;

// Any tensor of static shape: what every op but dist.compute (one-sided),
// dist.local_tile and dist.onesided_matmul takes.
def Dist_StaticTensorType : Type<
    And<[CPred<"::llvm::isa<::mlir::dist::DistTensorType>($_self)">,
         CPred<"::llvm::cast<::mlir::dist::DistTensorType>($_self)"
               ".hasStaticShape()">]>,
    "distributed tensor of static shape (dynamic extents `?` are supported "
    "on exported function arguments used by one-sided products; "
    "docs/interop.md)", "::mlir::dist::DistTensorType">;

def Dist_StaticDenseTensorType : Type<
    And<[CPred<"::llvm::isa<::mlir::dist::DistTensorType>($_self)">,
         CPred<"!::llvm::cast<::mlir::dist::DistTensorType>($_self)"
               ".isSparse()">,
         CPred<"::llvm::cast<::mlir::dist::DistTensorType>($_self)"
               ".hasStaticShape()">]>,
    "dense distributed tensor (this op does not take sparse tensors yet) of "
    "static shape (dynamic extents `?` are supported on exported function "
    "arguments used by one-sided products; docs/interop.md)",
    "::mlir::dist::DistTensorType">;

def Dist_DenseTensorType : Type<
    And<[CPred<"::llvm::isa<::mlir::dist::DistTensorType>($_self)">,
         CPred<"!::llvm::cast<::mlir::dist::DistTensorType>($_self)"
               ".isSparse()">]>,
    "dense distributed tensor (this op does not take sparse tensors yet)", "::mlir::dist::DistTensorType">;

def Dist_SparseTileType : Dist_Type<"SparseTile", "sparse_tile"> {
  let summary = "the running process's piece of a sparse distributed tensor";
  let description = [{
    A handle to the piece of a sparse `!dist.tensor` that the running
    process holds, owned by the runtime (a `distrt_spmat`: its rows in CSR,
    and the exchange plan of the products it takes part in; see
    docs/sparse.md). `dist-tensors-to-tiles` gives every sparse tensor this
    type, as it gives dense tensors their `memref<?xT>` tile;
    `convert-dist-to-runtime` lowers it to a pointer. The ops on it
    (`dist.sparse_*`) name the tensor's type where they need its extents,
    format or layout.

    ```mlir
    %h = dist.sparse_new : !dist.sparse_tile of !B
    ```
  }];
}

def Dist_RequestType : Dist_Type<"Request", "request"> {
  let summary = "a transfer in flight";
  let description = [{
    The request of a non-blocking transfer (`dist.start_broadcast`,
    `dist.start_shift`, `dist.start_allgather`, `dist.start_permute`), which
    `dist.wait` completes, or the null request (`dist.null_request`: no
    transfer). `convert-dist-to-runtime` lowers it to the runtime's `i64`
    request id (0 for the null request).

    ```mlir
    %req = dist.start_broadcast %buf on @m axes [1] root %r : memref<?xf64>
    dist.wait %req
    ```
  }];
}

#endif // DIST_TYPES_TD
