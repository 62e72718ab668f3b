//===- DistBase.td - dist dialect definition ---------------*- tablegen -*-===//
//
// The dist dialect describes machines (processor grids), how tensors are
// distributed over them, and tensor-index-notation computations with
// DISTAL-style schedules.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_BASE_TD
#define DIST_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::mlir::dist";
  let summary = "Distributed tensor algebra: machines, layouts, schedules";
  let description = [{
    The `dist` dialect is the input language of the dist compiler. A program
    names a *machine* (a possibly hierarchical processor grid, `dist.grid`),
    says how every tensor is *distributed* over it (DISTAL's tensor
    distribution notation or the thesis' mode-tuple notation), states *what* to
    compute as one tensor-index-notation statement and *how* as a DISTAL
    schedule. Passes verify the combination, derive the communication with
    isl, and lower to SPMD code calling the `distrt` runtime (MPI or NCCL).
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // The discardable `dist.time_loop` / `dist.overlap` of time loops.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
  // sparse_tensor: the local format of sparse !dist.tensor types.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::sparse_tensor::SparseTensorDialect"];
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

class Dist_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dist_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // DIST_BASE_TD
