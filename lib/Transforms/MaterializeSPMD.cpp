//===- MaterializeSPMD.cpp - dist IR to per-rank SPMD code ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Rewrites distributed tensors and scheduled statements into the code every
// rank runs: local tiles, time loops, box fetches and accumulations through
// the distrt runtime, and leaf computation (scalar loops or GEMM calls).
//
// This file is the pass driver: it lowers functions, their distributed
// tensor arguments, dist.alloc, dist.fill, dist.load and dist.store, and
// hands computations and redistributions to the parts under SPMD/:
//   SPMDBuilder      runtime calls (RuntimeFunctions.def), constants, tiles
//   Compute          dist.compute: buffers, overlap, the loop nest, leaves
//   Transfers        a tensor's transfer from its TransferPlan
//   LeafKernels      scalar, linalg, GEMM and MTTKRP leaves
//   Redistribute     dist.redistribute: plan steps, partial sums
//   Instrumentation  check and timing
//
//===----------------------------------------------------------------------===//

#include "SPMD/SPMDBuilder.h"
#include "SPMD/SPMDLowering.h"

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTMATERIALIZESPMD
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

using abi::dtypeOf;
using abi::layoutDescriptor;

namespace {

/// Lowers the functions of a module: their dist ops, and their
/// distributed tensor arguments, which become local tiles.
class FunctionLowering {
public:
  FunctionLowering(SPMDBuilder &rt, bool moduleUsesDist)
      : rt(rt), moduleUsesDist(moduleUsesDist) {}

  LogicalResult lowerFunction(func::FuncOp f);

private:
  LogicalResult lowerAlloc(AllocOp op);
  LogicalResult lowerFill(FillOp op);
  /// dist.load / dist.store: one runtime call that reads or writes this
  /// rank's part of the tensor file (runtime/lib/io.c checks the file).
  LogicalResult lowerFileOp(Operation *op);

  SPMDBuilder &rt;
  /// Whether any function of the module uses distributed tensors.
  bool moduleUsesDist;
};

struct DistMaterializeSPMDPass
    : public dist::impl::DistMaterializeSPMDBase<DistMaterializeSPMDPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (redistribution != "balanced" && redistribution != "general") {
      module.emitError() << "dist-materialize-spmd: redistribution='"
                         << redistribution
                         << "' is not 'balanced' or 'general'";
      return signalPassFailure();
    }
    CostModel costModel;
    costModel.memoryBound = !relaxMemoryBound;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, costModel);
      if (!err.empty()) {
        module.emitError() << err;
        return signalPassFailure();
      }
    }
    SPMDOptions options;
    options.check = check;
    options.timing = timing;
    options.tolerance = tolerance;
    options.redistribution = redistribution;
    options.overlap = overlap;
    options.leafFallback = leafFallback;
    SPMDBuilder rt(module, options, costModel);

    SmallVector<func::FuncOp> funcs;
    module.walk([&](func::FuncOp f) { funcs.push_back(f); });
    bool moduleUsesDist = module
                              .walk([](Operation *op) {
                                return isDistOp(op) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
                              })
                              .wasInterrupted();
    FunctionLowering lowering(rt, moduleUsesDist);
    for (func::FuncOp f : funcs)
      if (failed(lowering.lowerFunction(f)) || rt.runtimeCallFailed())
        return signalPassFailure();
  }
};

} // namespace

LogicalResult FunctionLowering::lowerFunction(func::FuncOp f) {
  bool usesDist = false;
  f.walk([&](Operation *op) {
    if (isDistOp(op))
      usesDist = true;
  });
  for (Type t : f.getArgumentTypes())
    if (isa<DistTensorType>(t))
      usesDist = true;
  // A @main that only calls functions using the runtime must still end
  // it (distrt_finalize) before it returns.
  if (f.getSymName() == "main" && moduleUsesDist)
    usesDist = true;
  for (Type t : f.getResultTypes())
    if (isa<DistTensorType>(t))
      return f.emitError("functions cannot return distributed tensors; "
                         "pass the result tensor as an argument");
  if (!usesDist || f.isExternal())
    return success();

  // Arguments that are distributed tensors stand for their local tiles;
  // their types change once every op has been lowered.
  SmallVector<BlockArgument> tileArgs;
  for (BlockArgument arg : f.getArguments()) {
    if (auto t = dyn_cast<DistTensorType>(arg.getType())) {
      if (failed(rt.checkTensorType(f, t)))
        return failure();
      rt.tiles.map(arg, arg);
      tileArgs.push_back(arg);
    }
  }

  // distrt_init at entry (idempotent); distrt_finalize before main returns.
  {
    OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
    rt.call(b, f.getLoc(), "distrt_init", {});
    if (f.getSymName() == "main")
      f.walk([&](func::ReturnOp r) {
        OpBuilder rb(r);
        rt.call(rb, r.getLoc(), "distrt_finalize", {});
      });
  }

  SmallVector<Operation *> ops;
  f.walk([&](Operation *op) {
    if (isDistOp(op))
      ops.push_back(op);
  });
  // The program's own calls (not the runtime calls lowering adds).
  SmallVector<func::CallOp> userCalls;
  f.walk([&](func::CallOp c) { userCalls.push_back(c); });
  for (Operation *op : ops) {
    LogicalResult r = success();
    if (auto a = dyn_cast<AllocOp>(op))
      r = lowerAlloc(a);
    else if (auto fl = dyn_cast<FillOp>(op))
      r = lowerFill(fl);
    else if (isa<dist::LoadOp, dist::StoreOp>(op))
      r = lowerFileOp(op);
    else if (auto c = dyn_cast<ComputeOp>(op))
      r = lowerCompute(rt, c);
    else if (auto rd = dyn_cast<RedistributeOp>(op))
      r = lowerRedistribute(rt, rd);
    if (failed(r))
      return failure();
  }
  // Calls passing tiles.
  for (func::CallOp c : userCalls)
    for (OpOperand &o : c->getOpOperands())
      if (Value t = rt.tiles.lookupOrNull(o.get()))
        o.set(t);
  for (BlockArgument arg : tileArgs) {
    arg.setType(rt.tileType(cast<DistTensorType>(arg.getType())));
    rt.tiles.erase(arg);
  }
  SmallVector<Type> argTypes;
  for (BlockArgument arg : f.getArguments())
    argTypes.push_back(arg.getType());
  f.setType(FunctionType::get(f.getContext(), argTypes, f.getResultTypes()));

  // Erase the dist ops (in reverse: users before allocations).
  for (Operation *op : llvm::reverse(ops)) {
    if (!op->use_empty()) {
      Operation *user = *op->getUsers().begin();
      return user->emitError("uses a distributed tensor but cannot be "
                             "lowered by dist-materialize-spmd");
    }
    // Forget the erased values: a later op may reuse their storage.
    for (Value r : op->getResults())
      rt.tiles.erase(r);
    op->erase();
  }
  return success();
}

LogicalResult FunctionLowering::lowerAlloc(AllocOp op) {
  DistTensorType t = op.getResult().getType();
  if (failed(rt.checkTensorType(op, t)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value g = rt.gridHandle(b, loc, t.getLayout().getGrid());
  Value cap = rt.call(b, loc, "distrt_layout_tile_capacity",
                      {g, rt.constArray(b, loc, layoutDescriptor(t))});
  Value tile = rt.allocChecked(b, loc, rt.tileType(t),
                               ValueRange{rt.toIndex(b, loc, cap)},
                               "the local tile of a distributed tensor");
  rt.tiles.map(op.getResult(), tile);
  // Free the tile at the end of the enclosing block.
  Block *block = op->getBlock();
  OpBuilder eb(block->getTerminator());
  memref::DeallocOp::create(eb, loc, tile);
  return success();
}

LogicalResult FunctionLowering::lowerFill(FillOp op) {
  DistTensorType t = op.getTensor().getType();
  Value tile = rt.tileOf(op, op.getTensor());
  if (!tile)
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value g = rt.gridHandle(b, loc, t.getLayout().getGrid());
  rt.call(b, loc, "distrt_layout_fill",
          {g, rt.constArray(b, loc, layoutDescriptor(t)),
           rt.ptrOf(b, loc, tile), rt.i64(b, loc, dtypeOf(t.getElementType())),
           rt.i64(b, loc, (int64_t)op.getSeed())});
  return success();
}

LogicalResult FunctionLowering::lowerFileOp(Operation *op) {
  auto load = dyn_cast<dist::LoadOp>(op);
  auto store = dyn_cast<dist::StoreOp>(op);
  Value tensor = load ? load.getTensor() : store.getTensor();
  StringRef path = load ? load.getPath() : store.getPath();
  auto t = cast<DistTensorType>(tensor.getType());
  if (failed(rt.checkTensorType(op, t)))
    return failure();
  Value tile = rt.tileOf(op, tensor);
  if (!tile)
    return failure();
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value g = rt.gridHandle(b, loc, t.getLayout().getGrid());
  rt.call(b, loc, load ? "distrt_layout_load" : "distrt_layout_store",
          {g, rt.constArray(b, loc, layoutDescriptor(t)),
           rt.ptrOf(b, loc, tile), rt.i64(b, loc, dtypeOf(t.getElementType())),
           rt.constString(b, loc, path)});
  return success();
}
