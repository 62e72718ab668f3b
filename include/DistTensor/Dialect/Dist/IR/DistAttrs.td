//===- DistAttrs.td - dist dialect attributes --------------*- tablegen -*-===//

#ifndef DIST_ATTRS_TD
#define DIST_ATTRS_TD

include "DistTensor/Dialect/Dist/IR/DistBase.td"
include "mlir/IR/EnumAttr.td"

def Dist_ProcessorKind : I32EnumAttr<"ProcessorKind",
    "kind of processor at one level of a machine", [
      I32EnumAttrCase<"cpu", 0>,
      I32EnumAttrCase<"gpu", 1>,
      I32EnumAttrCase<"node", 2>
    ]> {
  let cppNamespace = "::mlir::dist";
  let genSpecializedAttr = 0;
}

def Dist_ProcessorKindAttr
    : EnumAttr<Dist_Dialect, Dist_ProcessorKind, "processor_kind">;

def Dist_GridLevelAttr : Dist_Attr<"GridLevel", "level"> {
  let summary = "one level of a (possibly hierarchical) processor grid";
  let description = [{
    A level of a machine: the extents of its processor grid and the kind of
    processor at that level (`cpu` for an MPI rank, `gpu` for a GPU, `node`
    for a host that is itself a grid at the next level).

    ```mlir
    #dist.level<[2, 2], cpu>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "ProcessorKind":$kind);
  let assemblyFormat = "`<` `[` $shape `]` `,` $kind `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def Dist_PartitionKind : I32EnumAttr<"PartitionKind",
    "how a tensor dimension is dealt out over its mesh modes", [
      I32EnumAttrCase<"none", 0>,
      I32EnumAttrCase<"blocked", 1>,
      I32EnumAttrCase<"cyclic", 2>,
      I32EnumAttrCase<"block_cyclic", 3>,
      I32EnumAttrCase<"nonzeros", 4>
    ]> {
  let cppNamespace = "::mlir::dist";
  let genSpecializedAttr = 0;
}

def Dist_GeneratorKind : I32EnumAttr<"GeneratorKind",
    "a generator of sparse matrices (dist.generate)", [
      I32EnumAttrCase<"banded", 0>,
      I32EnumAttrCase<"rmat", 1>,
      I32EnumAttrCase<"uniform", 2>
    ]> {
  let cppNamespace = "::mlir::dist";
}

def Dist_SparsePart : I32EnumAttr<"SparsePart",
    "a part of a process's piece of a sparse matrix (dist.sparse_part)", [
      I32EnumAttrCase<"all", 0>,
      I32EnumAttrCase<"diag", 1>,
      I32EnumAttrCase<"offdiag", 2>
    ]> {
  let cppNamespace = "::mlir::dist";
}

def Dist_Stationary : I32EnumAttr<"Stationary",
    "the tensor of a one-sided product that does not move "
    "(dist.onesided_matmul)", [
      I32EnumAttrCase<"A", 0>,
      I32EnumAttrCase<"B", 1>,
      I32EnumAttrCase<"C", 2>
    ]> {
  let cppNamespace = "::mlir::dist";
}

def Dist_DimDistAttr : Dist_Attr<"DimDist", "dim"> {
  let summary = "distribution of one tensor dimension over mesh modes";
  let description = [{
    The ordered tuple of mesh modes (grid dimensions) one tensor dimension
    is partitioned over -- the first listed varies fastest, as in the
    thesis' notation -- and how indices are dealt out: `blocked`
    (contiguous blocks of ceil(n/p)), `cyclic` (round robin, the thesis'
    elemental distribution), `block_cyclic` with block size `block`, or,
    on sparse tensors only, `nonzeros` (SpDISTAL's non-zero partition: the
    stored entries of this dimension's level and of the levels below it, in
    storage order, cut into runs of ceil(nnz/p)). An
    empty tuple (kind `none`) leaves the dimension whole on every process.

    `skew` (optional) lists further mesh modes whose coordinates rotate the
    owner: the process with coordinates c owns part
    (multi2linear(c, axes) + sum of c[s] over s in skew) mod prod(P, axes)
    instead of part multi2linear(c, axes). This is the polyhedral article's
    skewed sharding `k @ ((x + y) mod g)` (Cannon's pre-skewed operands):
    `(1) blocked skew(0)`. Skew modes must differ from `axes`, and a mode
    that partitions a skewed dimension cannot skew another dimension.
    Normally seen only inside `#dist.layout`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$axes,
                        "PartitionKind":$kind,
                        "int64_t":$block,
                        OptionalArrayRefParameter<"int64_t">:$skew);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$axes, "PartitionKind":$kind,
                     "int64_t":$block), [{
      return $_get($_ctxt, axes, kind, block, ::llvm::ArrayRef<int64_t>());
    }]>
  ];
  let assemblyFormat =
      "`<` `[` $axes `]` `,` $kind `,` $block (`,` `skew` `[` $skew^ `]`)? `>`";
  let genVerifyDecl = 1;
}

def Dist_LevelLayoutAttr : Dist_Attr<"LevelLayout", "level_layout"> {
  let summary = "distribution of a tensor over one level of a machine";
  let description = [{
    One `DimDistAttr` per tensor dimension, plus the mesh modes the tensor
    is fixed on: only processors whose coordinate on each axis of
    `fixedAxes` equals the matching entry of `fixedCoords` hold data
    (DISTAL's `xy -> xy0`, the thesis' non-replicated form `[D; E, w]`).
    Mesh modes used by no dimension and not fixed replicate the data
    (DISTAL's `*`, the thesis' unused modes). `fixedAxes` is sorted.
    Normally seen only inside `#dist.layout`.
  }];
  let parameters = (ins ArrayRefParameter<"DimDistAttr">:$dims,
                        ArrayRefParameter<"int64_t">:$fixedAxes,
                        ArrayRefParameter<"int64_t">:$fixedCoords);
  let assemblyFormat =
      "`<` `[` $dims `]` `,` `[` $fixedAxes `]` `,` `[` $fixedCoords `]` `>`";
  let genVerifyDecl = 1;
}

def Dist_LayoutAttr : Dist_Attr<"Layout", "layout"> {
  let summary = "how a tensor is distributed over a named machine";
  let description = [{
    The canonical form of a tensor distribution on the grid `grid`, one
    level layout per level of a hierarchical machine (outermost first). It
    can be written in three spellings that all produce this one form:

    1. DISTAL's tensor distribution notation, one string per level, with an
       optional partition kind (default `blocked`, DISTAL's rule):
       `#dist.layout<@m, "xy -> xy0">`, `#dist.layout<@m, "xy -> x*">`,
       `#dist.layout<@m, "xy -> xy" block_cyclic(4)>`. On a sparse tensor a
       machine letter followed by `~` (`"xy -> x~"`, SpDISTAL's
       `B_xy -(xy->f)-> |->_f~ M`) or the kind `nonzeros` partitions the
       stored entries instead of the coordinates (`(0) nonzeros`).
       Tensor dimensions named on both sides are partitioned over that
       machine dimension; a machine dimension written `*` replicates, a
       digit fixes the tensor to that coordinate (a face of the machine).
    2. The thesis' mode-tuple notation as a string, elemental cyclic:
       `#dist.layout<@m, "[(0,2),(1)]">`, `"[(0),()]"`, and the
       non-replicated form `"[(0),(); (1), 0]"`.
    3. The canonical form, which is also how layouts print: one tuple of
       mesh modes per tensor dimension, bare tuples cyclic (so the thesis
       notation reads as is), other kinds spelled out, and fixed
       coordinates after `|`:
       `#dist.layout<@m, [(0) blocked, (1) blocked] | (2 = 0)>`.
       A dimension may add `skew(modes)` after its kind to rotate its owners
       by those mesh modes' coordinates (the article's skewed sharding):
       `#dist.layout<@m, [(0) blocked, (1) blocked skew(0)]>` puts block
       (x + y) mod P1 of the second dimension on processor (x, y).

    In the thesis' non-replicated form `[D; E, w]` with several modes in E
    only w = 0 is accepted (other w need the grid extents to split into
    coordinates; write the coordinates in the canonical form instead).

    Local tiles are dense, row-major, and hold exactly the indices the
    process owns (ceil(n/p)-sized blocks for blocked; the last may be
    short or empty).
  }];
  let parameters = (ins "FlatSymbolRefAttr":$grid,
                        ArrayRefParameter<"LevelLayoutAttr">:$levels);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The outermost level.
    LevelLayoutAttr getOuter() const { return getLevels().front(); }
    /// Number of tensor dimensions the layout describes.
    unsigned getRank() const { return getOuter().getDims().size(); }
    /// Checks the layout against the grid it names (mesh modes in range and
    /// used at most once, holders valid, as many levels as the grid). Emits
    /// through `emitError` and fails when it does not fit.
    ::llvm::LogicalResult verifyAgainstGrid(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::Operation *grid) const;
  }];
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

def Dist_ScheduleAttr : Dist_Attr<"Schedule", "schedule"> {
  let summary = "a DISTAL schedule: scheduling commands in order";
  let description = [{
    DISTAL's scheduling commands, applied in order to the statement of a
    `dist.compute`, written as in the paper (without the leading dots):

    ```mlir
    #dist.schedule<[distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                    split(k, ko, ki, 256), reorder({ko, ii, ji, ki}),
                    communicate(A, jo), communicate({B, C}, ko),
                    substitute({ii, ji, ki}, gemm)]>
    ```

    Commands: `divide(i, io, ii, parts)`, `split(i, io, ii, chunk)`,
    `reorder({...})`, `collapse(i, j, f)` (alias `fuse`),
    `distribute(i)` / `distribute({i, j})`, the compound
    `distribute({targets}, {dist}, {local}, Grid(...) | @machine)`,
    `communicate(T | {T...}, v)`, `rotate(t, {vars}, r)`,
    `parallelize(v)`, `substitute({vars}, kernel)` with kernel `gemm` or
    `mttkrp`, and `overlap(on | off)`. DISTAL's `precompute` is rejected
    (a computation has no temporaries; write the temporary as its own
    `dist.compute`). Each command is stored as an array `[name, args...]`;
    the attribute decodes them once, when it is made, and every reader
    (`dist.compute`'s `getLoopNest()`) uses that decoding.
  }];
  let parameters = (ins "ArrayAttr":$commands);
  let hasCustomAssemblyFormat = 1;
  // The decoded commands live in the storage (made once per distinct
  // command array), so the storage is written by hand.
  let genStorageClass = 0;
  let extraClassDeclaration = [{
    /// The decoded commands, in order (empty when `isValid()` is false).
    ::llvm::ArrayRef<::mlir::dist::ScheduleCommand> getDecoded() const;
    /// Whether every command array is well formed.
    bool isValid() const;
    /// Why a command array is malformed (empty when valid).
    ::llvm::StringRef getDecodeError() const;
  }];
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

def Dist_StatementAttr : Dist_Attr<"Statement", "statement"> {
  let summary = "a tensor-index-notation statement, parsed once";
  let description = [{
    One statement of tensor index notation, e.g.
    `A(i,l) = B(i,j,k) * C(j,l) * D(k,l)` (the grammar is `dist.compute`'s).
    The attribute holds the text as written (printing gives it back
    unchanged) and the statement parsed from it: the text is parsed once,
    when the attribute is made, and every reader of a `dist.compute` uses
    that parse. Text that does not parse is rejected where the attribute is
    written, with the column of the error:

    ```mlir
    #dist.statement<"A(i,j) = B(i,k) * C(k,j)">
    ```

    `dist.compute` prints and parses its statement as the bare string; this
    spelling appears in the generic form of the op.
  }];
  let parameters = (ins StringRefParameter<"the statement as written">:$text);
  let hasCustomAssemblyFormat = 1;
  // The parse lives in the storage (made once per distinct text), so the
  // storage is written by hand and `getChecked` reports its outcome.
  let genStorageClass = 0;
  // The op's accessor (`dist.compute`'s `getStatement()`) gives the text.
  let returnType = "::llvm::StringRef";
  let convertFromStorage =
      "::llvm::cast<::mlir::dist::StatementAttr>($_self).getText()";
  let extraClassDeclaration = [{
    /// The attribute for `text`, or null after reporting through
    /// `emitError` why `text` is not a statement (`invalid statement "..."
    /// at column N: ...`, the column counted from 1).
    static StatementAttr
    getChecked(::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
               ::mlir::MLIRContext *context, ::llvm::StringRef text);
    /// The parsed statement. Only an attribute made with `get` from text
    /// that does not parse lacks one (`isValid()` is false; the
    /// `dist.compute` verifier reports it); its statement is then empty.
    const ::mlir::dist::IndexStatement &getStatement() const;
    /// Whether the text parsed.
    bool isValid() const;
    /// Emits why the text does not parse through `emitError`, in the
    /// wording of `getChecked`.
    ::mlir::InFlightDiagnostic
    emitParseError(::llvm::function_ref<::mlir::InFlightDiagnostic()>
                       emitError) const;
  }];
}

def Dist_ReductionKind : I32EnumAttr<"ReductionKind",
    "reduction operator of a collective", [
      I32EnumAttrCase<"sum", 0>,
      I32EnumAttrCase<"prod", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"max", 3>
    ]> {
  let cppNamespace = "::mlir::dist";
}

#endif // DIST_ATTRS_TD
