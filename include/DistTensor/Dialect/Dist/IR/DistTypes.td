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
  let summary = "a dense tensor distributed over a machine";
  let description = [{
    A global tensor of static shape and element type (`f32`, `f64`, `i32`
    or `i64`) whose elements are spread over the processors of a machine as
    its layout says. At most 8 dimensions (the runtime's `DISTRT_MAX_DIMS`)
    and 2^50 elements. Values of this type are handles to distributed
    storage (like a memref): operations read and write them in place.

    ```mlir
    !dist.tensor<1024x1024xf64, #dist.layout<@m, "xy -> xy">>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        "LayoutAttr":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumElements() const {
      int64_t n = 1;
      for (int64_t e : getShape())
        n *= e;
      return n;
    }
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
