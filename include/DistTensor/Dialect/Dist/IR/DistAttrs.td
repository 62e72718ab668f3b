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

#endif // DIST_ATTRS_TD
