//===- MaterializeSPMD.cpp - dist IR to per-rank SPMD code ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Rewrites distributed tensors and scheduled statements into the code every
// rank runs: local tiles, time loops, box fetches and accumulations through
// the distrt runtime, and leaf computation (scalar loops or GEMM calls).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Analysis/Redistribution.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"
#include "DistTensor/Dialect/Dist/IR/VariableRange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTMATERIALIZESPMD
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {

// distrt element type codes and layout descriptors (RuntimeABI.h).
using abi::dtypeOf;
using abi::layoutDescriptor;

/// The dist ops dist-materialize-spmd rewrites.
bool isDistOp(Operation *op) {
  return isa<AllocOp, FillOp, dist::LoadOp, dist::StoreOp, ComputeOp,
             RedistributeOp>(op);
}

/// Static properties of the range of an index variable at a loop level.
struct StaticRange {
  bool point = false; // a single value
  bool full = false;  // all of [0, extent)
  bool exact = true;  // exactly [lo, lo + size), not a bounding box
  int64_t maxSize = 1;
};

/// Dynamic range: [lo, lo + size).
struct DynRange {
  Value lo, size;
  StaticRange info;
};

/// Everything known about one dist.compute while it is lowered.
class ComputeLowering {
public:
  ComputeLowering(ComputeOp op, IndexStatement &stmt, LoopNest &nest,
                  llvm::StringMap<int64_t> &extents)
      : op(op), stmt(stmt), nest(nest), extents(extents),
        children(derivedVariables(nest)) {}

  ComputeOp op;
  IndexStatement &stmt;
  LoopNest &nest;
  llvm::StringMap<int64_t> &extents;
  /// parent variable -> derived variables.
  DerivedVariables children;
  /// Values of fixed loops (distributed loops and enclosing scf.for ivs).
  llvm::StringMap<Value> fixed;

  int64_t extentOf(StringRef v) const { return nest.extents.lookup(v); }

  bool isLoop(StringRef v) const { return nest.indexOf(v) >= 0; }

  /// The static shape of the range of `v` when the loops in `fixedSet` are
  /// fixed and the other loops run over their whole extent.
  StaticRange staticRange(StringRef v, const llvm::StringSet<> &fixedSet) {
    StaticRange r;
    int64_t n = extentOf(v);
    if (isLoop(v)) {
      if (fixedSet.contains(v)) {
        r.point = true;
        r.maxSize = 1;
      } else {
        r.full = true;
        r.maxSize = n;
      }
      return r;
    }
    auto it = children.find(v);
    if (it == children.end() || it->second.empty()) {
      r.full = true;
      r.maxSize = n;
      return r;
    }
    const SmallVector<std::string, 2> &kids = it->second;
    const Derivation &d0 = nest.derivations[kids[0]];
    switch (d0.kind) {
    case Derivation::Kind::DivideOuter:
    case Derivation::Kind::DivideInner:
    case Derivation::Kind::SplitOuter:
    case Derivation::Kind::SplitInner: {
      auto [outer, inner] = *nest.splitOf(v);
      int64_t b = d0.blockSize;
      StaticRange ro = staticRange(outer, fixedSet);
      StaticRange ri = staticRange(inner, fixedSet);
      r.maxSize = std::min(n, (ro.maxSize - 1) * b + ri.maxSize);
      r.point = ro.point && ri.point;
      r.full = ro.full && ri.full;
      r.exact = ro.exact && ri.exact && (ro.point || ri.full);
      return r;
    }
    case Derivation::Kind::Rotated: {
      StaticRange rr = staticRange(kids[0], fixedSet);
      r.point = rr.point;
      r.full = !rr.point;
      r.exact = rr.point || rr.full;
      r.maxSize = rr.point ? 1 : n;
      return r;
    }
    case Derivation::Kind::Collapsed: {
      StaticRange rf = staticRange(kids[0], fixedSet);
      r.point = rf.point;
      r.full = !rf.point;
      r.exact = rf.point || rf.full;
      r.maxSize = rf.point ? 1 : n;
      return r;
    }
    case Derivation::Kind::Original:
      break;
    }
    r.full = true;
    r.maxSize = n;
    return r;
  }

  // --- dynamic ranges -----------------------------------------------------

  Value cst(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, op.getLoc(), v);
  }

  /// variableRange's arithmetic as emitted index operations. A divided or
  /// split variable whose range is statically one value adds the guard
  /// `lo < extent` to `guards` (an uneven tail can put it past the end).
  struct Emitter {
    using Value = mlir::Value;
    ComputeLowering &cl;
    OpBuilder &b;
    const llvm::StringSet<> &fixedSet;
    SmallVectorImpl<Value> *guards;
    Location loc() const { return cl.op.getLoc(); }
    Value constant(int64_t c) { return cl.cst(b, c); }
    Value add(Value x, Value y) {
      return arith::AddIOp::create(b, loc(), x, y);
    }
    Value sub(Value x, Value y) {
      return arith::SubIOp::create(b, loc(), x, y);
    }
    Value mul(Value x, Value y) {
      return arith::MulIOp::create(b, loc(), x, y);
    }
    Value min(Value x, Value y) {
      return arith::MinSIOp::create(b, loc(), x, y);
    }
    Value max(Value x, Value y) {
      return arith::MaxSIOp::create(b, loc(), x, y);
    }
    Value rem(Value x, Value y) {
      return arith::RemUIOp::create(b, loc(), x, y);
    }
    Value div(Value x, Value y) {
      return arith::DivUIOp::create(b, loc(), x, y);
    }
    std::optional<Value> fixedLoop(StringRef loop) {
      if (!fixedSet.contains(loop))
        return std::nullopt;
      return cl.fixed.lookup(loop);
    }
    bool isPoint(StringRef var, const VariableRange<Emitter> &) {
      return cl.staticRange(var, fixedSet).point;
    }
    void onDerivedPoint(StringRef var, Value lo, int64_t extent) {
      if (guards && cl.staticRange(var, fixedSet).point)
        guards->push_back(arith::CmpIOp::create(
            b, loc(), arith::CmpIPredicate::slt, lo, constant(extent)));
    }
  };

  /// The range of `v` given the fixed loop values in `fixed` (other loops
  /// run over their whole extent). `guards` collects `value < extent`
  /// conditions of intermediate variables for point ranges.
  DynRange range(OpBuilder &b, StringRef v, const llvm::StringSet<> &fixedSet,
                 SmallVectorImpl<Value> *guards) {
    Emitter e{*this, b, fixedSet, guards};
    VariableRange<Emitter> r = variableRange(nest, children, v, e);
    return DynRange{r.lo, r.size, staticRange(v, fixedSet)};
  }
};

/// A buffer holding a box of a tensor: lo and size per tensor dimension.
struct BoxBuffer {
  Value memref; // memref<?xT>
  SmallVector<Value> lo, size;
};

struct DistMaterializeSPMDPass
    : public dist::impl::DistMaterializeSPMDBase<DistMaterializeSPMDPass> {
  using Base::Base;

  ModuleOp module;
  Type ptrTy, i64Ty, f64Ty, indexTy;
  unsigned globalCounter = 0;
  unsigned refinedCounter = 0;
  llvm::StringMap<LLVM::GlobalOp> descriptorGlobals;
  /// dist tensor value -> its local tile (memref<?xT>).
  IRMapping tiles;
  /// The redistribution planner's cost model.
  CostModel costModel;

  void runOnOperation() override {
    module = getOperation();
    MLIRContext *ctx = &getContext();
    ptrTy = LLVM::LLVMPointerType::get(ctx);
    i64Ty = IntegerType::get(ctx, 64);
    f64Ty = Float64Type::get(ctx);
    indexTy = IndexType::get(ctx);
    if (redistribution != "balanced" && redistribution != "general") {
      module.emitError() << "dist-materialize-spmd: redistribution='"
                         << redistribution
                         << "' is not 'balanced' or 'general'";
      return signalPassFailure();
    }
    costModel.memoryBound = !relaxMemoryBound;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, costModel);
      if (!err.empty()) {
        module.emitError() << err;
        return signalPassFailure();
      }
    }

    SmallVector<func::FuncOp> funcs;
    module.walk([&](func::FuncOp f) { funcs.push_back(f); });
    moduleUsesDist =
        module.walk([](Operation *op) {
                return isDistOp(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
              }).wasInterrupted();
    for (func::FuncOp f : funcs)
      if (failed(lowerFunction(f)) || runtimeCallFailed)
        return signalPassFailure();
  }

  /// Whether any function of the module uses distributed tensors.
  bool moduleUsesDist = false;

  // --- runtime calls -------------------------------------------------------

  /// The declaration of runtime function `name` for a call passing `args`,
  /// with its signature from the runtime table (RuntimeFunctions.def); null
  /// (after an internal-error diagnostic) when `name` is not in the table
  /// or the arguments do not match it.
  func::FuncOp runtimeFn(Location loc, StringRef name, TypeRange args) {
    FailureOr<const abi::RuntimeFunction *> entry =
        abi::lookupRuntimeFunction(loc, name, args);
    if (failed(entry))
      return {};
    if (auto f = module.lookupSymbol<func::FuncOp>(name))
      return f;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto f = func::FuncOp::create(b, module.getLoc(), name,
                                  abi::getFunctionType(b.getContext(),
                                                       **entry));
    f.setPrivate();
    return f;
  }

  /// Whether a runtime call failed its table lookup (the pass fails).
  bool runtimeCallFailed = false;

  /// A call of runtime function `name`; its result, if it has one. A name
  /// not in the runtime table or arguments that do not match it are an
  /// internal error: the pass fails, and a poison i64 stands for the
  /// result meanwhile.
  Value call(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
    func::FuncOp f = runtimeFn(loc, name, args.getTypes());
    if (!f) {
      runtimeCallFailed = true;
      return LLVM::PoisonOp::create(b, loc, i64Ty);
    }
    auto c = func::CallOp::create(b, loc, f, args);
    return c.getNumResults() ? c.getResult(0) : Value();
  }

  Value i64(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  }
  Value idx(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value toI64(OpBuilder &b, Location loc, Value v) {
    return arith::IndexCastOp::create(b, loc, i64Ty, v);
  }
  Value toIndex(OpBuilder &b, Location loc, Value v) {
    return arith::IndexCastOp::create(b, loc, indexTy, v);
  }

  /// Aligned pointer of a memref.
  Value ptrOf(OpBuilder &b, Location loc, Value mem) {
    Value a = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
    Value p = LLVM::IntToPtrOp::create(b, loc, ptrTy, toI64(b, loc, a));
    auto type = dyn_cast<MemRefType>(mem.getType());
    if (!type || !isa<StridedLayoutAttr>(type.getLayout()))
      return p;
    // A view into a tile (a box read in place): add its offset.
    auto md = memref::ExtractStridedMetadataOp::create(b, loc, mem);
    return LLVM::GEPOp::create(b, loc, ptrTy, type.getElementType(), p,
                               ValueRange{toI64(b, loc, md.getOffset())});
  }

  /// Pointer to a constant i64 array global holding `values`.
  Value constArray(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
    std::string key;
    for (int64_t v : values)
      key += std::to_string(v) + ",";
    LLVM::GlobalOp global = descriptorGlobals.lookup(key);
    if (!global) {
      OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
      std::string name;
      do {
        name = "__dist_desc_" + std::to_string(globalCounter++);
      } while (module.lookupSymbol(name));
      auto arrTy = LLVM::LLVMArrayType::get(i64Ty, values.size());
      auto attr = DenseElementsAttr::get(
          RankedTensorType::get({(int64_t)values.size()}, i64Ty), values);
      global = LLVM::GlobalOp::create(gb, loc, arrTy, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, name, attr);
      descriptorGlobals[key] = global;
    }
    return LLVM::AddressOfOp::create(b, loc, global);
  }

  /// Pointer to a constant NUL-terminated string.
  llvm::StringMap<LLVM::GlobalOp> stringGlobals;
  Value constString(OpBuilder &b, Location loc, StringRef text) {
    if (LLVM::GlobalOp existing = stringGlobals.lookup(text))
      return LLVM::AddressOfOp::create(b, loc, existing);
    std::string name;
    do {
      name = "__dist_str_" + std::to_string(globalCounter++);
    } while (module.lookupSymbol(name));
    OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
    std::string data = text.str();
    data.push_back('\0');
    auto arrTy =
        LLVM::LLVMArrayType::get(IntegerType::get(b.getContext(), 8),
                                 data.size());
    auto global = LLVM::GlobalOp::create(gb, loc, arrTy, /*isConstant=*/true,
                                         LLVM::Linkage::Internal, name,
                                         gb.getStringAttr(data));
    stringGlobals[text] = global;
    return LLVM::AddressOfOp::create(b, loc, global);
  }

  /// Stack array of `values` (index) as i64, returned as a pointer; the
  /// memref is allocated at `allocaPoint` so no allocation happens in loops.
  Value indexArray(OpBuilder &b, Location loc, Value buffer,
                   ArrayRef<Value> values) {
    for (auto [i, v] : llvm::enumerate(values))
      memref::StoreOp::create(b, loc, toI64(b, loc, v), buffer,
                              ValueRange{idx(b, loc, i)});
    return ptrOf(b, loc, buffer);
  }

  /// memref.alloc followed by a check that stops every rank with a clear
  /// message (naming `what` and the byte count) if the allocation failed.
  Value allocChecked(OpBuilder &b, Location loc, MemRefType type,
                     ValueRange dynSizes, StringRef what) {
    Value mem = memref::AllocOp::create(b, loc, type, dynSizes);
    int64_t eltBytes = type.getElementTypeBitWidth() / 8;
    Value bytes = i64(b, loc, eltBytes);
    unsigned dyn = 0;
    for (int64_t e : type.getShape())
      bytes = arith::MulIOp::create(
          b, loc, bytes,
          ShapedType::isDynamic(e) ? toI64(b, loc, dynSizes[dyn++])
                                   : i64(b, loc, e));
    call(b, loc, "distrt_check_alloc",
         {ptrOf(b, loc, mem), bytes, constString(b, loc, what)});
    return mem;
  }

  Value gridHandle(OpBuilder &b, Location loc, FlatSymbolRefAttr grid) {
    return GridHandleOp::create(b, loc, ptrTy, grid);
  }

  // --- functions -----------------------------------------------------------

  LogicalResult lowerFunction(func::FuncOp f) {
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
        if (failed(checkTensorType(f, t)))
          return failure();
        tiles.map(arg, arg);
        tileArgs.push_back(arg);
      }
    }

    // distrt_init at entry (idempotent); distrt_finalize before main returns.
    {
      OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
      call(b, f.getLoc(), "distrt_init", {});
      if (f.getSymName() == "main")
        f.walk([&](func::ReturnOp r) {
          OpBuilder rb(r);
          call(rb, r.getLoc(), "distrt_finalize", {});
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
        r = lowerCompute(c);
      else if (auto rd = dyn_cast<RedistributeOp>(op))
        r = lowerRedistribute(rd);
      if (failed(r))
        return failure();
    }
    // Calls passing tiles.
    for (func::CallOp c : userCalls)
      for (OpOperand &o : c->getOpOperands())
        if (Value t = tiles.lookupOrNull(o.get()))
          o.set(t);
    for (BlockArgument arg : tileArgs) {
      arg.setType(tileType(cast<DistTensorType>(arg.getType())));
      tiles.erase(arg);
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
        tiles.erase(r);
      op->erase();
    }
    return success();
  }

  MemRefType tileType(DistTensorType t) {
    return MemRefType::get({ShapedType::kDynamic}, t.getElementType());
  }

  LogicalResult checkTensorType(Operation *where, DistTensorType t) {
    if (t.getLayout().getLevels().size() != 1)
      return where->emitError("tensor ")
             << t << " has a hierarchical layout; dist-materialize-spmd "
                     "lowers single-level layouts only";
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        where, t.getLayout().getGrid());
    if (!grid)
      return where->emitError("layout names '")
             << t.getLayout().getGrid() << "', which is not a dist.grid";
    if (grid.getNumLevels() != 1)
      return where->emitError("grid ")
             << t.getLayout().getGrid()
             << " is hierarchical; dist-materialize-spmd lowers one-level "
                "grids only";
    return success();
  }

  Value tileOf(Operation *user, Value tensor) {
    Value t = tiles.lookupOrNull(tensor);
    if (!t)
      user->emitError("distributed tensor operand has no local tile; it "
                      "must be a function argument or a dist.alloc result");
    return t;
  }

  LogicalResult lowerAlloc(AllocOp op) {
    DistTensorType t = op.getResult().getType();
    if (failed(checkTensorType(op, t)))
      return failure();
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value g = gridHandle(b, loc, t.getLayout().getGrid());
    Value cap = call(b, loc, "distrt_layout_tile_capacity",
                     {g, constArray(b, loc, layoutDescriptor(t))});
    Value tile = allocChecked(b, loc, tileType(t),
                              ValueRange{toIndex(b, loc, cap)},
                              "the local tile of a distributed tensor");
    tiles.map(op.getResult(), tile);
    // Free the tile at the end of the enclosing block.
    Block *block = op->getBlock();
    OpBuilder eb(block->getTerminator());
    memref::DeallocOp::create(eb, loc, tile);
    return success();
  }

  LogicalResult lowerFill(FillOp op) {
    DistTensorType t = op.getTensor().getType();
    Value tile = tileOf(op, op.getTensor());
    if (!tile)
      return failure();
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value g = gridHandle(b, loc, t.getLayout().getGrid());
    call(b, loc, "distrt_layout_fill",
         {g, constArray(b, loc, layoutDescriptor(t)), ptrOf(b, loc, tile),
          i64(b, loc, dtypeOf(t.getElementType())),
          i64(b, loc, (int64_t)op.getSeed())});
    return success();
  }

  /// Emits the steps of a plan from `src` (layout `from`) into `dst`
  /// (layout of the last step), through intermediate tiles; an empty plan
  /// is a local copy into layout `to`.
  void emitPlanSteps(OpBuilder &b, Location loc, Value g, DistTensorType t,
                     std::vector<RedistributionStep> steps,
                     const ModeTuples &from, const ModeTuples &to, Value src,
                     Value dst, Value dtype, const FixedAxes &fromFixed = {},
                     const Blocks &fromBlocks = {},
                     const Blocks &toBlocks = {}) {
    SmallVector<int64_t> shape(t.getShape());
    if (steps.empty()) {
      RedistributionStep copy;
      copy.kind = RedistributionStep::Kind::LocalSlice;
      copy.after = to;
      copy.blocksAfter = toBlocks;
      steps.push_back(copy);
    }
    Value cur = src;
    ModeTuples curT = from;
    FixedAxes curF = fromFixed;
    Blocks curB = fromBlocks;
    for (auto [i, step] : llvm::enumerate(steps)) {
      bool last = i + 1 == steps.size();
      SmallVector<int64_t> desc = modeTupleDescriptor(
          step.after, shape, step.fixedAfter, step.blocksAfter);
      Value next = last ? dst : allocTile(b, loc, g, t, desc);
      int64_t mask = 0;
      for (int64_t m : step.modes)
        mask |= int64_t(1) << m;
      Value sdesc =
          constArray(b, loc, modeTupleDescriptor(curT, shape, curF, curB));
      Value ddesc = constArray(b, loc, desc);
      Value axes = step.kind == RedistributionStep::Kind::LocalSlice
                       ? Value()
                       : i64(b, loc, mask);
      Value scur = ptrOf(b, loc, cur), snext = ptrOf(b, loc, next);
      auto withAxes = [&](StringRef fn) {
        call(b, loc, fn, {g, axes, sdesc, scur, ddesc, snext, dtype});
      };
      switch (step.kind) {
      case RedistributionStep::Kind::LocalSlice:
        call(b, loc, "distrt_redist_slice",
             {g, sdesc, scur, ddesc, snext, dtype});
        break;
      case RedistributionStep::Kind::AllGather:
        withAxes("distrt_redist_allgather");
        break;
      case RedistributionStep::Kind::Permutation:
        withAxes("distrt_redist_permute");
        break;
      case RedistributionStep::Kind::AllToAll:
        withAxes("distrt_redist_alltoall");
        break;
      case RedistributionStep::Kind::Gather:
        withAxes("distrt_redist_gather");
        break;
      case RedistributionStep::Kind::Broadcast:
        withAxes("distrt_redist_bcast");
        break;
      case RedistributionStep::Kind::Scatter:
        withAxes("distrt_redist_scatter");
        break;
      case RedistributionStep::Kind::KindChange:
        withAxes("distrt_redist_kind");
        break;
      }
      if (cur != src)
        memref::DeallocOp::create(b, loc, cur);
      cur = next;
      curT = step.after;
      curF = step.fixedAfter;
      curB = step.blocksAfter;
    }
  }

  /// A one-level cpu grid of extents `shape` (the common refinement of two
  /// grids a redistribution runs on): an existing one, or a new
  /// `dist.grid @__dist_refined_N` at the start of the module.
  FlatSymbolRefAttr refinedGridSymbol(ArrayRef<int64_t> shape, Location loc) {
    for (GridOp g : module.getOps<GridOp>())
      if (g.getNumLevels() == 1 &&
          g.getLevel(0).getKind() == ProcessorKind::cpu &&
          g.getShape() == shape)
        return FlatSymbolRefAttr::get(g.getSymNameAttr());
    MLIRContext *ctx = module.getContext();
    std::string name;
    do {
      name = "__dist_refined_" + std::to_string(refinedCounter++);
    } while (SymbolTable::lookupSymbolIn(module, name));
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    auto level = GridLevelAttr::get(ctx, shape, ProcessorKind::cpu);
    GridOp::create(mb, loc, StringAttr::get(ctx, name),
                   ArrayAttr::get(ctx, {level}));
    return FlatSymbolRefAttr::get(ctx, name);
  }

  /// A checked tile of the largest size `desc` gives a process.
  Value allocTile(OpBuilder &b, Location loc, Value g, DistTensorType t,
                  ArrayRef<int64_t> desc) {
    Value cap = call(b, loc, "distrt_layout_tile_capacity",
                     {g, constArray(b, loc, desc)});
    return allocChecked(b, loc, tileType(t), ValueRange{toIndex(b, loc, cap)},
                        "an intermediate tile of a redistribution");
  }

  /// dist.load / dist.store: one runtime call that reads or writes this
  /// rank's part of the tensor file (runtime/lib/io.c checks the file).
  LogicalResult lowerFileOp(Operation *op) {
    auto load = dyn_cast<dist::LoadOp>(op);
    auto store = dyn_cast<dist::StoreOp>(op);
    Value tensor = load ? load.getTensor() : store.getTensor();
    StringRef path = load ? load.getPath() : store.getPath();
    auto t = cast<DistTensorType>(tensor.getType());
    if (failed(checkTensorType(op, t)))
      return failure();
    Value tile = tileOf(op, tensor);
    if (!tile)
      return failure();
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value g = gridHandle(b, loc, t.getLayout().getGrid());
    call(b, loc, load ? "distrt_layout_load" : "distrt_layout_store",
         {g, constArray(b, loc, layoutDescriptor(t)), ptrOf(b, loc, tile),
          i64(b, loc, dtypeOf(t.getElementType())),
          constString(b, loc, path)});
    return success();
  }

  LogicalResult lowerRedistribute(RedistributeOp op) {
    DistTensorType st = op.getSource().getType();
    DistTensorType dt = op.getDest().getType();
    if (failed(checkTensorType(op, st)) || failed(checkTensorType(op, dt)))
      return failure();
    Value s = tileOf(op, op.getSource()), d = tileOf(op, op.getDest());
    if (!s || !d)
      return failure();
    if (op.getSum())
      return lowerPartialSum(op, s, d);
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value dtype = i64(b, loc, dtypeOf(st.getElementType()));
    std::optional<RedistributionPlan> plan;
    OpRedistributionPlan r;
    if (redistribution == "balanced") {
      r = planRedistributeOp(op, costModel);
      plan = r.plan;
    }
    if (plan) {
      FlatSymbolRefAttr grid = st.getLayout().getGrid();
      if (!r.refinedGrid.empty())
        grid = refinedGridSymbol(r.refinedGrid, loc);
      emitPlanSteps(b, loc, gridHandle(b, loc, grid), st,
                    plan->steps, r.from, r.to, s, d, dtype, r.fromFixed,
                    r.fromBlocks, r.toBlocks);
    } else {
      call(b, loc, "distrt_redistribute",
           {gridHandle(b, loc, st.getLayout().getGrid()),
            constArray(b, loc, layoutDescriptor(st)), ptrOf(b, loc, s),
            gridHandle(b, loc, dt.getLayout().getGrid()),
            constArray(b, loc, layoutDescriptor(dt)), ptrOf(b, loc, d),
            dtype});
    }
    if (check) {
      // The destination must hold exactly the gathered source.
      Value gs = gridHandle(b, loc, st.getLayout().getGrid());
      Value gd = gridHandle(b, loc, dt.getLayout().getGrid());
      Value global = memref::AllocOp::create(
          b, loc, MemRefType::get({st.getNumElements()}, st.getElementType()));
      call(b, loc, "distrt_layout_gather",
           {gs, constArray(b, loc, layoutDescriptor(st)), ptrOf(b, loc, s),
            dtype, ptrOf(b, loc, global), i64(b, loc, 0)});
      call(b, loc, "distrt_check_result",
           {gd, constString(b, loc, "redistribute"),
            constArray(b, loc, layoutDescriptor(dt)), ptrOf(b, loc, d), dtype,
            ptrOf(b, loc, global),
            arith::ConstantOp::create(b, loc, f64Ty, b.getF64FloatAttr(0.0))});
      memref::DeallocOp::create(b, loc, global);
    }
    return success();
  }

  /// dist.redistribute ... sum [...]: the thesis' reduction over the freed
  /// modes into the destination, or an allreduce into the kept layout
  /// followed by a redistribution.
  LogicalResult lowerPartialSum(RedistributeOp op, Value s, Value d) {
    DistTensorType st = op.getSource().getType();
    DistTensorType dt = op.getDest().getType();
    PartialSumPlan r =
        planPartialSum(op, costModel, redistribution == "general");
    if (!r.error.empty())
      return op.emitError("cannot lower this partial-sum redistribution: ")
             << r.error;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type elt = st.getElementType();
    Value dtype = i64(b, loc, dtypeOf(elt));
    Value g = gridHandle(b, loc, st.getLayout().getGrid());
    SmallVector<int64_t> shape(dt.getShape());
    SmallVector<int64_t> sdesc =
        modeTupleDescriptor(r.from, SmallVector<int64_t>(st.getShape()));
    SmallVector<int64_t> kdesc = modeTupleDescriptor(r.kept, shape);
    SmallVector<int64_t> ddesc = kdesc;
    if (r.direct && r.kind == PartialSumPlan::Kind::ReduceScatter)
      ddesc = modeTupleDescriptor(*modeTuplesOf(dt), shape);
    if (r.direct && r.kind == PartialSumPlan::Kind::ReduceToOne) {
      ddesc.back() = r.freed.size();
      for (int64_t a : r.freed) {
        ddesc.push_back(a);
        ddesc.push_back(0);
      }
    }
    Value target = r.direct ? d : allocTile(b, loc, g, dt, kdesc);
    StringRef fn = r.kind == PartialSumPlan::Kind::AllReduce
                       ? "distrt_redist_allreduce"
                   : r.kind == PartialSumPlan::Kind::ReduceScatter
                       ? "distrt_redist_reduce_scatter"
                       : "distrt_redist_reduce";
    call(b, loc, fn,
         {g, i64(b, loc, r.axesMask), i64(b, loc, r.sumMask),
          constArray(b, loc, sdesc), ptrOf(b, loc, s),
          constArray(b, loc, ddesc), ptrOf(b, loc, target), dtype});
    if (!r.direct) {
      if (r.then) {
        emitPlanSteps(b, loc, g, dt, r.then->steps, r.kept,
                      *modeTuplesOf(dt), target, d, dtype);
      } else {
        call(b, loc, "distrt_redistribute",
             {g, constArray(b, loc, kdesc), ptrOf(b, loc, target),
              gridHandle(b, loc, dt.getLayout().getGrid()),
              constArray(b, loc, layoutDescriptor(dt)), ptrOf(b, loc, d),
              dtype});
      }
      memref::DeallocOp::create(b, loc, target);
    }
    if (check) {
      // Reference on rank 0: the gathered source summed over the dims.
      Value global = memref::AllocOp::create(
          b, loc, MemRefType::get({st.getNumElements()}, elt));
      Value ref =
          memref::AllocOp::create(b, loc, MemRefType::get({dt.getNumElements()}, elt));
      call(b, loc, "distrt_layout_gather",
           {g, constArray(b, loc, layoutDescriptor(st)), ptrOf(b, loc, s),
            dtype, ptrOf(b, loc, global), i64(b, loc, 0)});
      call(b, loc, "distrt_sum_reference",
           {g, i64(b, loc, 0), ptrOf(b, loc, global), dtype,
            i64(b, loc, st.getRank()),
            constArray(b, loc, SmallVector<int64_t>(st.getShape())),
            i64(b, loc, r.sumMask), ptrOf(b, loc, ref)});
      double tol = tolerance;
      if (tol < 0)
        tol = elt.isF64() ? 1e-12 : elt.isF32() ? 1e-4 : 0.0;
      call(b, loc, "distrt_check_result",
           {gridHandle(b, loc, dt.getLayout().getGrid()),
            constString(b, loc, "redistribute sum"),
            constArray(b, loc, layoutDescriptor(dt)), ptrOf(b, loc, d), dtype,
            ptrOf(b, loc, ref),
            arith::ConstantOp::create(b, loc, f64Ty, b.getF64FloatAttr(tol))});
      memref::DeallocOp::create(b, loc, ref);
      memref::DeallocOp::create(b, loc, global);
    }
    return success();
  }

  // --- computations ---------------------------------------------------------

  /// Emits `out op= expr` for one iteration point. `index(x)` gives the
  /// value of statement variable x; `element(access)` loads an operand.
  /// Summed variables at whose first value each addend counts (see
  /// addendGuards); `indexOf(x)` gives the global value of variable x.
  struct Guards {
    const AddendGuards &addends;
    function_ref<Value(StringRef)> indexOf;
  };

  /// `v` where every variable of `vars` is at its first value, 0 elsewhere.
  Value guardAddend(OpBuilder &b, Location loc, Value v, Type elt,
                    ArrayRef<std::string> vars, const Guards &g) {
    Value ok;
    for (const std::string &x : vars) {
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          g.indexOf(x), idx(b, loc, 0));
      ok = ok ? (Value)arith::AndIOp::create(b, loc, ok, first) : first;
    }
    Value zero = isa<FloatType>(elt)
                     ? (Value)arith::ConstantOp::create(
                           b, loc, elt, b.getFloatAttr(elt, 0.0))
                     : (Value)arith::ConstantOp::create(
                           b, loc, elt, b.getIntegerAttr(elt, 0));
    return arith::SelectOp::create(b, loc, ok, v, zero);
  }

  Value emitExpr(OpBuilder &b, Location loc, const IndexExpr *e, Type elt,
                 function_ref<Value(const Access &)> load,
                 const Guards &guards) {
    bool isFloat = isa<FloatType>(elt);
    switch (e->kind) {
    case IndexExpr::Kind::Access:
      return load(e->access);
    case IndexExpr::Kind::Constant:
      if (isFloat)
        return arith::ConstantOp::create(b, loc, elt,
                                         b.getFloatAttr(elt, e->constant));
      return arith::ConstantOp::create(
          b, loc, elt, b.getIntegerAttr(elt, (int64_t)e->constant));
    case IndexExpr::Kind::Neg: {
      Value v = emitExpr(b, loc, e->lhs.get(), elt, load, guards);
      if (isFloat)
        return arith::NegFOp::create(b, loc, v);
      Value zero = arith::ConstantOp::create(b, loc, elt,
                                             b.getIntegerAttr(elt, 0));
      return arith::SubIOp::create(b, loc, zero, v);
    }
    case IndexExpr::Kind::Add:
    case IndexExpr::Kind::Sub:
    case IndexExpr::Kind::Mul: {
      Value l = emitExpr(b, loc, e->lhs.get(), elt, load, guards);
      Value r = emitExpr(b, loc, e->rhs.get(), elt, load, guards);
      if (e->kind != IndexExpr::Kind::Mul) {
        auto lg = guards.addends.find(e->lhs.get());
        if (lg != guards.addends.end())
          l = guardAddend(b, loc, l, elt, lg->second, guards);
        auto rg = guards.addends.find(e->rhs.get());
        if (rg != guards.addends.end())
          r = guardAddend(b, loc, r, elt, rg->second, guards);
      }
      if (e->kind == IndexExpr::Kind::Add)
        return isFloat ? (Value)arith::AddFOp::create(b, loc, l, r)
                       : (Value)arith::AddIOp::create(b, loc, l, r);
      if (e->kind == IndexExpr::Kind::Sub)
        return isFloat ? (Value)arith::SubFOp::create(b, loc, l, r)
                       : (Value)arith::SubIOp::create(b, loc, l, r);
      return isFloat ? (Value)arith::MulFOp::create(b, loc, l, r)
                     : (Value)arith::MulIOp::create(b, loc, l, r);
    }
    }
    return {};
  }

  /// Linear offset of `indices` in a row-major box (lo, size).
  Value boxOffset(OpBuilder &b, Location loc, const BoxBuffer &box,
                  ArrayRef<Value> indices) {
    Value off = idx(b, loc, 0);
    for (auto [d, x] : llvm::enumerate(indices)) {
      off = arith::MulIOp::create(b, loc, off, box.size[d]);
      off = arith::AddIOp::create(b, loc, off,
                                  arith::SubIOp::create(b, loc, x, box.lo[d]));
    }
    return off;
  }

  /// Emits the scalar update of the statement at the point given by
  /// `valueOf`, reading and writing the boxes in `boxes`.
  void emitPointUpdate(OpBuilder &b, Location loc, Type elt,
                       llvm::StringMap<BoxBuffer> &boxes,
                       const IndexStatement &stmt,
                       function_ref<Value(StringRef)> valueOf) {
    auto indicesOf = [&](const Access &a) {
      SmallVector<Value> ix;
      for (const std::string &v : a.indices)
        ix.push_back(valueOf(v));
      return ix;
    };
    auto load = [&](const Access &a) -> Value {
      BoxBuffer &box = boxes[a.tensor];
      Value off = boxOffset(b, loc, box, indicesOf(a));
      return memref::LoadOp::create(b, loc, box.memref, ValueRange{off});
    };
    AddendGuards addends = addendGuards(stmt);
    Value v = emitExpr(b, loc, stmt.rhs.get(), elt, load,
                       Guards{addends, valueOf});
    BoxBuffer &out = boxes[stmt.lhs.tensor];
    Value off = boxOffset(b, loc, out, indicesOf(stmt.lhs));
    Value old = memref::LoadOp::create(b, loc, out.memref, ValueRange{off});
    Value sum = isa<FloatType>(elt)
                    ? (Value)arith::AddFOp::create(b, loc, old, v)
                    : (Value)arith::AddIOp::create(b, loc, old, v);
    memref::StoreOp::create(b, loc, sum, out.memref, ValueRange{off});
  }

  LogicalResult lowerCompute(ComputeOp op) {
    Location loc = op.getLoc();
    FailureOr<std::unique_ptr<ComputeModel>> modelOr = buildComputeModel(op);
    if (failed(modelOr))
      return failure();
    ComputeModel &model = **modelOr;
    IndexStatement &stmt = model.stmt;
    LoopNest &nest = model.nest;
    llvm::StringMap<int64_t> &extents = model.extents;
    llvm::StringMap<DistTensorType> &types = model.types;
    llvm::StringMap<Value> &values = model.values;
    FlatSymbolRefAttr gridRef = model.grid;
    DistTensorType outType = types[stmt.lhs.tensor];
    SmallVector<const Access *> all{&stmt.lhs};
    llvm::append_range(all, stmt.rhsAccesses());
    ArrayRef<const Loop *> distLoops = model.distLoops;
    ArrayRef<const Loop *> localLoops = model.localLoops;
    ArrayRef<int64_t> dimOfLoop = model.gridDimOf;
    llvm::StringMap<unsigned> &level = model.level;
    unsigned leafLevel = model.leafLevel;
    llvm::StringMap<TransferPlan> plans;
    for (TransferPlan &p : analyzeCommunication(model)) {
      // Say why a tensor moves with the general exchange (one remark per
      // tensor and computation).
      if (p.kind == TransferPlan::Kind::General)
        op.emitRemark() << "tensor '" << p.tensor
                        << "' moves with the general exchange: "
                        << p.whyGeneral
                        << "; a layout that matches the schedule (see "
                           "--dist-report-communication) makes it local or "
                           "a collective";
      plans[p.tensor] = p;
    }

    ComputeLowering cl(op, stmt, nest, extents);
    OpBuilder b(op);
    Type elt = outType.getElementType();
    int64_t dtype = dtypeOf(elt);
    Value g = gridHandle(b, loc, gridRef);
    // With check, whole copies of the inputs (and of the output for `+=`)
    // as they are before the computation, for the reference (outside the
    // timed region).
    llvm::StringMap<Value> before;
    if (check)
      before = gatherForCheck(b, loc, stmt, types, values, g, elt);
    Value timer;
    auto allAxes = [&] {
      return i64(b, loc, (int64_t(1) << model.gridShape.size()) - 1);
    };
    if (timing) {
      // The clock starts after a barrier and stops after another one, so
      // that the maximum over the processes is the computation's makespan:
      // without them, processes of a computation that does not communicate
      // could run their parts one after the other on shared cores and each
      // report only its own part.
      call(b, loc, "distrt_barrier", {g, allAxes()});
      // Marks the computation for DISTRT_PROFILE (a no-op otherwise);
      // distrt_report_time ends it.
      call(b, loc, "distrt_profile_kernel_begin", {});
      timer = call(b, loc, "distrt_wtime", {});
    }

    // Grid coordinates give the distributed loops' values.
    for (auto [l, d] : llvm::zip(distLoops, dimOfLoop))
      cl.fixed[l->name] = toIndex(
          b, loc, call(b, loc, "distrt_grid_coord", {g, i64(b, loc, d)}));

    auto fixedAt = [&](unsigned k) {
      llvm::StringSet<> s;
      for (const Loop *l : distLoops)
        s.insert(l->name);
      for (unsigned i = 0; i < k; ++i)
        s.insert(localLoops[i]->name);
      return s;
    };

    // Buffers, allocated once.
    llvm::StringMap<BoxBuffer> boxes;
    llvm::StringMap<Value> sendBufs;
    llvm::StringMap<Value> loArr, sizeArr;
    llvm::StringMap<int64_t> capacity;
    SmallVector<std::string> names = stmt.tensorNames();
    for (const std::string &t : names) {
      DistTensorType type = types[t];
      const Access *acc = &stmt.lhs;
      for (const Access *a : all)
        if (a->tensor == t)
          acc = a;
      llvm::StringSet<> fs = fixedAt(level[t]);
      int64_t cap = 1;
      for (const std::string &x : acc->indices)
        cap *= cl.staticRange(x, fs).maxSize;
      capacity[t] = cap;
      auto bufTy = MemRefType::get({cap}, elt);
      BoxBuffer box;
      box.memref = allocChecked(b, loc, bufTy, {},
                                "the communication buffer of tensor " + t);
      boxes[t] = box;
      // A second buffer for what this rank sends (permutations) or
      // contributes / receives as its piece (allgather, reduce-scatter).
      TransferPlan::Kind kind = plans[t].kind;
      if (kind == TransferPlan::Kind::PointToPoint ||
          kind == TransferPlan::Kind::AllGather ||
          kind == TransferPlan::Kind::ReduceScatter ||
          (kind == TransferPlan::Kind::Shift && plans[t].alignByPermutation))
        sendBufs[t] = allocChecked(b, loc, bufTy, {},
                                   "the send buffer of tensor " + t);
      int64_t rank = std::max<int64_t>(type.getRank(), 1);
      loArr[t] = memref::AllocaOp::create(
          b, loc, MemRefType::get({rank}, i64Ty));
      sizeArr[t] = memref::AllocaOp::create(
          b, loc, MemRefType::get({rank}, i64Ty));
    }

    // Overlap (double buffering): an input that moves at every step of a
    // sequential time loop gets a second buffer and a slot for the request
    // of its transfer in flight. `firstBufs` keeps the first buffer (the
    // boxes' memref becomes the one of the current step inside the loop).
    bool overlapOn = nest.overlap.value_or(overlap);
    llvm::StringSet<> overlapped;
    llvm::StringMap<Value> firstBufs, altBufs, reqSlots;
    for (const std::string &t : names) {
      firstBufs[t] = boxes[t].memref;
      if (!overlapOn || t == stmt.lhs.tensor)
        continue;
      unsigned k = level[t];
      if (k == 0 || k > leafLevel || localLoops[k - 1]->extent < 2)
        continue;
      if (llvm::any_of(ArrayRef<const Loop *>(localLoops).take_front(k),
                       [](const Loop *l) { return l->parallel; }))
        continue;
      TransferPlan::Kind kind = plans[t].kind;
      if (kind != TransferPlan::Kind::Broadcast &&
          kind != TransferPlan::Kind::Shift &&
          kind != TransferPlan::Kind::AllGather &&
          kind != TransferPlan::Kind::PointToPoint)
        continue;
      overlapped.insert(t);
      altBufs[t] = allocChecked(
          b, loc, MemRefType::get({capacity[t]}, elt), {},
          "the second communication buffer of tensor " + t);
      reqSlots[t] =
          memref::AllocaOp::create(b, loc, MemRefType::get({1}, i64Ty));
    }

    llvm::StringMap<const Access *> &accessOf = model.accessOf;
    Value myRank = call(b, loc, "distrt_grid_rank", {g});

    // Linear step index at level k (local loops < k, row-major).
    auto stepIndex = [&](OpBuilder &ib, unsigned k) {
      Value t = idx(ib, loc, 0);
      for (unsigned i = 0; i < k; ++i) {
        t = arith::MulIOp::create(ib, loc, t,
                                  idx(ib, loc, localLoops[i]->extent));
        t = arith::AddIOp::create(ib, loc, t, cl.fixed[localLoops[i]->name]);
      }
      return t;
    };
    // Root of a broadcast / reduce at this step, from its table.
    auto rootAt = [&](OpBuilder &ib, const TransferPlan &plan, unsigned k) {
      Value table = constArray(ib, loc, plan.rootTable);
      Value at = arith::AddIOp::create(
          ib, loc, arith::MulIOp::create(ib, loc, myRank, i64(ib, loc, plan.steps)),
          toI64(ib, loc, stepIndex(ib, k)));
      Value ptr = LLVM::GEPOp::create(ib, loc, ptrTy, i64Ty, table,
                                      ValueRange{at});
      return toIndex(ib, loc, LLVM::LoadOp::create(ib, loc, i64Ty, ptr));
    };
    auto maskOf = [&](ArrayRef<int64_t> axes) {
      int64_t mask = 0;
      for (int64_t a : axes)
        mask |= int64_t(1) << a;
      return mask;
    };
    // The first `vol` elements of a buffer, as a memref the communication
    // ops take.
    auto viewOf = [&](OpBuilder &ib, const BoxBuffer &box) -> Value {
      Value vol = idx(ib, loc, 1);
      for (Value sz : box.size)
        vol = arith::MulIOp::create(ib, loc, vol, sz);
      auto viewTy = MemRefType::get({ShapedType::kDynamic}, elt);
      return memref::ReinterpretCastOp::create(
          ib, loc, viewTy, box.memref, OpFoldResult(ib.getIndexAttr(0)),
          ArrayRef<OpFoldResult>{OpFoldResult(vol)},
          ArrayRef<OpFoldResult>{OpFoldResult(ib.getIndexAttr(1))});
    };

    Value outTile = tileOf(op, values[stmt.lhs.tensor]);
    if (!outTile)
      return failure();
    // The verifier rejects an output bound to the same value as an input;
    // through function parameters the same tensor can still arrive under
    // two names, which only the running program can see.
    {
      std::string where;
      llvm::raw_string_ostream ws(where);
      if (auto fl = loc->findInstanceOf<FileLineColLoc>())
        ws << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
           << fl.getColumn() << ": ";
      stmt.print(ws);
      for (const std::string &t : stmt.tensorNames()) {
        if (t == stmt.lhs.tensor || values[t] == values[stmt.lhs.tensor])
          continue;
        Value inTile = tileOf(op, values[t]);
        if (!inTile)
          return failure();
        call(b, loc, "distrt_check_distinct",
             {ptrOf(b, loc, outTile), ptrOf(b, loc, inTile),
              constString(b, loc, where), constString(b, loc, t)});
      }
    }
    Value outDesc = constArray(b, loc, layoutDescriptor(outType));
    if (!stmt.accumulate)
      call(b, loc, "distrt_layout_zero",
           {g, outDesc, ptrOf(b, loc, outTile), i64(b, loc, dtype)});

    // Element `at` of a constant i64 table, as an index.
    auto loadTable = [&](OpBuilder &ib, Value table, Value at) {
      Value ptr = LLVM::GEPOp::create(ib, loc, ptrTy, i64Ty, table,
                                      ValueRange{at});
      return LLVM::LoadOp::create(ib, loc, i64Ty, ptr).getResult();
    };
    auto rowOf = [&](OpBuilder &ib, const TransferPlan &plan, unsigned k) {
      return arith::AddIOp::create(
                 ib, loc,
                 arith::MulIOp::create(ib, loc, myRank,
                                       i64(ib, loc, plan.steps)),
                 toI64(ib, loc, stepIndex(ib, k)))
          .getResult();
    };
    // A 1-D view of the first `vol` elements of any buffer.
    auto flatView = [&](OpBuilder &ib, Value buf, Value vol) -> Value {
      auto viewTy = MemRefType::get({ShapedType::kDynamic}, elt);
      return memref::ReinterpretCastOp::create(
          ib, loc, viewTy, buf, OpFoldResult(ib.getIndexAttr(0)),
          ArrayRef<OpFoldResult>{OpFoldResult(vol)},
          ArrayRef<OpFoldResult>{OpFoldResult(ib.getIndexAttr(1))});
    };
    // One step of a permutation: send the box the table names from this
    // rank's tile, receive this rank's box.
    auto emitPermutation = [&](OpBuilder &ib, const TransferPlan &plan,
                               unsigned k, const std::string &t,
                               Value desc, Value tileP, Value dt,
                               bool nonBlocking = false) -> Value {
      BoxBuffer &box = boxes[t];
      int64_t rank = accessOf[t]->indices.size();
      Value row = rowOf(ib, plan, k);
      Value src = loadTable(ib, constArray(ib, loc, plan.srcTable), row);
      Value dst = loadTable(ib, constArray(ib, loc, plan.dstTable), row);
      Value base = arith::MulIOp::create(ib, loc, row,
                                         i64(ib, loc, std::max<int64_t>(rank, 0)));
      Value dloP = LLVM::GEPOp::create(ib, loc, ptrTy, i64Ty,
                                       constArray(ib, loc, plan.dstLo),
                                       ValueRange{base});
      Value dsizeP = LLVM::GEPOp::create(ib, loc, ptrTy, i64Ty,
                                         constArray(ib, loc, plan.dstSize),
                                         ValueRange{base});
      Value scount = i64(ib, loc, 1);
      for (int64_t d = 0; d < rank; ++d) {
        Value at = arith::AddIOp::create(ib, loc, base, i64(ib, loc, d));
        scount = arith::MulIOp::create(
            ib, loc, scount,
            loadTable(ib, constArray(ib, loc, plan.dstSize), at));
      }
      Value hasDst = arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::sge,
                                           dst, i64(ib, loc, 0));
      scount = arith::SelectOp::create(ib, loc, hasDst, scount,
                                       i64(ib, loc, 0));
      Value sendBuf = sendBufs[t];
      scf::IfOp::create(ib, loc, hasDst, [&](OpBuilder &tb, Location l) {
        call(tb, l, "distrt_copy_box_local",
             {g, desc, tileP, dt, dloP, dsizeP, ptrOf(tb, l, sendBuf)});
        scf::YieldOp::create(tb, l);
      });
      Value rcount = i64(ib, loc, 1);
      for (Value sz : box.size)
        rcount = arith::MulIOp::create(ib, loc, rcount, toI64(ib, loc, sz));
      if (nonBlocking)
        return call(ib, loc, "distrt_ipermute",
                    {g, ptrOf(ib, loc, sendBuf), scount, dst,
                     ptrOf(ib, loc, box.memref), rcount, src, dt});
      call(ib, loc, "distrt_permute",
           {g, ptrOf(ib, loc, sendBuf), scount, dst,
            ptrOf(ib, loc, box.memref), rcount, src, dt});
      return Value();
    };
    // This rank's piece of a box cut along `dim` among `groupSize`
    // members: (lo, size) arrays written into the tensor's lo/size
    // scratch, and the piece's element count.
    auto pieceOf = [&](OpBuilder &ib, const TransferPlan &plan,
                       const std::string &t, Value &loP, Value &sizeP) {
      BoxBuffer &box = boxes[t];
      int64_t G = model.gridShape[plan.axes.front()];
      Value me = toIndex(
          ib, loc,
          call(ib, loc, "distrt_grid_coord",
               {g, i64(ib, loc, plan.axes.front())}));
      SmallVector<Value> lo = box.lo, size = box.size;
      Value piece = arith::DivUIOp::create(ib, loc, size[plan.splitDim],
                                           idx(ib, loc, G));
      lo[plan.splitDim] = arith::AddIOp::create(
          ib, loc, lo[plan.splitDim],
          arith::MulIOp::create(ib, loc, me, piece));
      size[plan.splitDim] = piece;
      loP = indexArray(ib, loc, loArr[t], lo);
      sizeP = indexArray(ib, loc, sizeArr[t], size);
      Value vol = idx(ib, loc, 1);
      for (Value sz : size)
        vol = arith::MulIOp::create(ib, loc, vol, sz);
      return vol;
    };

    // Sets tensor t's box at level k from the fixed loop values and
    // writes it into the tensor's lo / size scratch arrays.
    auto setBox = [&](OpBuilder &ib, const std::string &t, unsigned k,
                      Value &loP, Value &sizeP) {
      llvm::StringSet<> fs = fixedAt(k);
      BoxBuffer &box = boxes[t];
      box.lo.clear();
      box.size.clear();
      for (const std::string &x : accessOf[t]->indices) {
        DynRange r = cl.range(ib, x, fs, nullptr);
        box.lo.push_back(r.lo);
        box.size.push_back(r.size);
      }
      SmallVector<Value> lo = box.lo, size = box.size;
      if (lo.empty()) {
        lo.push_back(idx(ib, loc, 0));
        size.push_back(idx(ib, loc, 1));
      }
      loP = indexArray(ib, loc, loArr[t], lo);
      sizeP = indexArray(ib, loc, sizeArr[t], size);
    };
    // Overlap: starts the transfer of an overlapped input t at level k for
    // the step the fixed loops name, into `dest`, and returns its request
    // id (0: none in flight). `first`: step 0 of the time loop, where a
    // shift aligns (blocking) instead; `cur` is the buffer holding the
    // previous step, which a shift sends on.
    auto startTransfer = [&](OpBuilder &ib, unsigned k, const std::string &t,
                             Value dest, Value cur, bool first) -> Value {
      const TransferPlan &plan = plans[t];
      Value loP, sizeP;
      setBox(ib, t, k, loP, sizeP);
      BoxBuffer &box = boxes[t];
      box.memref = dest;
      Value tileP = ptrOf(ib, loc, tileOf(op, values[t]));
      Value desc = constArray(ib, loc, layoutDescriptor(types[t]));
      Value dt = i64(ib, loc, dtype);
      Value vol = i64(ib, loc, 1);
      for (Value sz : box.size)
        vol = arith::MulIOp::create(ib, loc, vol, toI64(ib, loc, sz));
      switch (plan.kind) {
      case TransferPlan::Kind::Broadcast: {
        Value root = rootAt(ib, plan, k);
        Value me = toIndex(
            ib, loc,
            call(ib, loc, "distrt_axes_rank",
                 {g, i64(ib, loc, maskOf(plan.axes))}));
        Value isRoot = arith::CmpIOp::create(
            ib, loc, arith::CmpIPredicate::eq, me, root);
        scf::IfOp::create(ib, loc, isRoot, [&](OpBuilder &tb, Location l) {
          call(tb, l, "distrt_copy_box_local",
               {g, desc, tileP, dt, loP, sizeP, ptrOf(tb, l, dest)});
          scf::YieldOp::create(tb, l);
        });
        return call(ib, loc, "distrt_ibcast",
                    {g, i64(ib, loc, maskOf(plan.axes)), ptrOf(ib, loc, dest),
                     vol, dt, toI64(ib, loc, root)});
      }
      case TransferPlan::Kind::Shift:
        if (first) {
          if (plan.alignLocal)
            call(ib, loc, "distrt_copy_box_local",
                 {g, desc, tileP, dt, loP, sizeP, ptrOf(ib, loc, dest)});
          else if (plan.alignByPermutation)
            emitPermutation(ib, plan, k, t, desc, tileP, dt);
          else
            call(ib, loc, "distrt_fetch_box",
                 {g, desc, tileP, dt, loP, sizeP, ptrOf(ib, loc, dest)});
          return i64(ib, loc, 0);
        }
        return call(ib, loc, "distrt_ishift",
                    {g, i64(ib, loc, plan.shiftAxis),
                     i64(ib, loc, plan.shiftOffset), ptrOf(ib, loc, cur),
                     ptrOf(ib, loc, dest), vol, dt});
      case TransferPlan::Kind::AllGather: {
        Value pLo, pSize;
        Value pvol = pieceOf(ib, plan, t, pLo, pSize);
        call(ib, loc, "distrt_copy_box_local",
             {g, desc, tileP, dt, pLo, pSize, ptrOf(ib, loc, sendBufs[t])});
        return call(ib, loc, "distrt_iallgather",
                    {g, i64(ib, loc, maskOf(plan.axes)),
                     ptrOf(ib, loc, sendBufs[t]), ptrOf(ib, loc, dest),
                     toI64(ib, loc, pvol), dt});
      }
      default: // PointToPoint
        return emitPermutation(ib, plan, k, t, desc, tileP, dt,
                               /*nonBlocking=*/true);
      }
    };
    // Overlap, inside the time loop of level k: wait for this step's
    // transfer of t, start the next step's into the other buffer, and
    // point t's box at this step's buffer.
    auto overlappedStep = [&](OpBuilder &ib, unsigned k,
                              const std::string &t) {
      const Loop *l = localLoops[k - 1];
      Value iv = cl.fixed[l->name];
      Value odd = arith::CmpIOp::create(
          ib, loc, arith::CmpIPredicate::ne,
          arith::RemUIOp::create(ib, loc, iv, idx(ib, loc, 2)),
          idx(ib, loc, 0));
      Value cur =
          arith::SelectOp::create(ib, loc, odd, altBufs[t], firstBufs[t]);
      Value next =
          arith::SelectOp::create(ib, loc, odd, firstBufs[t], altBufs[t]);
      Value slot = reqSlots[t];
      Value zeroIdx = idx(ib, loc, 0);
      Value req =
          memref::LoadOp::create(ib, loc, slot, ValueRange{zeroIdx});
      Value pending = arith::CmpIOp::create(
          ib, loc, arith::CmpIPredicate::ne, req, i64(ib, loc, 0));
      scf::IfOp::create(ib, loc, pending, [&](OpBuilder &tb, Location tl) {
        call(tb, tl, "distrt_wait", {req});
        scf::YieldOp::create(tb, tl);
      });
      Value nextIv = arith::AddIOp::create(ib, loc, iv, idx(ib, loc, 1));
      Value hasNext = arith::CmpIOp::create(
          ib, loc, arith::CmpIPredicate::slt, nextIv, idx(ib, loc, l->extent));
      scf::IfOp::create(
          ib, loc, hasNext,
          [&](OpBuilder &tb, Location tl) {
            cl.fixed[l->name] = nextIv;
            Value r = startTransfer(tb, k, t, next, cur, /*first=*/false);
            memref::StoreOp::create(tb, tl, r, slot,
                                    ValueRange{idx(tb, tl, 0)});
            scf::YieldOp::create(tb, tl);
          },
          [&](OpBuilder &eb, Location el) {
            memref::StoreOp::create(eb, el, i64(eb, el, 0), slot,
                                    ValueRange{idx(eb, el, 0)});
            scf::YieldOp::create(eb, el);
          });
      cl.fixed[l->name] = iv;
      Value loP, sizeP;
      setBox(ib, t, k, loP, sizeP);
      boxes[t].memref = cur;
    };
    // Overlap, before the time loop of level k (local loop k - 1): start
    // step 0's transfers.
    auto overlapPrologue = [&](OpBuilder &ib, unsigned k) {
      const Loop *l = localLoops[k - 1];
      for (const std::string &t : names) {
        if (level[t] != k || !overlapped.contains(t))
          continue;
        cl.fixed[l->name] = idx(ib, loc, 0);
        Value r = startTransfer(ib, k, t, firstBufs[t], Value(),
                                /*first=*/true);
        memref::StoreOp::create(ib, loc, r, reqSlots[t],
                                ValueRange{idx(ib, loc, 0)});
      }
    };

    // A box that is one contiguous row-major block of the rank's tile (the
    // whole tile, or whole rows of it) needs no buffer: a view of the tile
    // at the block's offset is the box. Returns the i1 condition and points
    // t's box at the view when it holds, at its buffer otherwise.
    llvm::StringMap<Value> aliasOf;
    // An input passed as the output tensor too (or the output, when an
    // input is the same tensor) is never read in place.
    auto sharesOutput = [&](const std::string &t) {
      for (const std::string &u : names)
        if (u != t && values[u] == values[t] &&
            (u == stmt.lhs.tensor || t == stmt.lhs.tensor))
          return true;
      return false;
    };
    auto aliasTile = [&](OpBuilder &ib, const std::string &t, Value tile,
                         Value desc, Value loP, Value sizeP) {
      Value at =
          call(ib, loc, "distrt_box_in_tile", {g, desc, loP, sizeP});
      Value isTile = arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::sge,
                                           at, i64(ib, loc, 0));
      Value offset = toIndex(
          ib, loc, arith::SelectOp::create(ib, loc, isTile, at, i64(ib, loc, 0)));
      Value vol = idx(ib, loc, 1);
      for (Value sz : boxes[t].size)
        vol = arith::MulIOp::create(ib, loc, vol, sz);
      auto viewTy = MemRefType::get(
          {ShapedType::kDynamic}, elt,
          StridedLayoutAttr::get(ib.getContext(), ShapedType::kDynamic, {1}));
      Value view = memref::ReinterpretCastOp::create(
          ib, loc, viewTy, tile, OpFoldResult(offset),
          ArrayRef<OpFoldResult>{OpFoldResult(vol)},
          ArrayRef<OpFoldResult>{OpFoldResult(ib.getIndexAttr(1))});
      Value buf = memref::CastOp::create(ib, loc, viewTy, firstBufs[t]);
      boxes[t].memref = arith::SelectOp::create(ib, loc, isTile, view, buf);
      aliasOf[t] = isTile;
      return isTile;
    };
    auto unlessAliased = [&](OpBuilder &ib, Value isTile,
                             function_ref<void(OpBuilder &)> body) {
      Value copy = arith::XOrIOp::create(
          ib, loc, isTile,
          arith::ConstantOp::create(ib, loc, ib.getBoolAttr(true)));
      scf::IfOp::create(ib, loc, copy, [&](OpBuilder &tb, Location l) {
        body(tb);
        scf::YieldOp::create(tb, l);
      });
    };

    // Emits the transfers of the inputs and the zeroing of the output
    // buffer at level k, and records the boxes.
    auto enterLevel = [&](OpBuilder &ib, unsigned k) -> LogicalResult {
      llvm::StringSet<> fs = fixedAt(k);
      for (const std::string &t : names) {
        if (level[t] != k)
          continue;
        if (overlapped.contains(t)) {
          overlappedStep(ib, k, t);
          continue;
        }
        const TransferPlan &plan = plans[t];
        const Access *acc = accessOf[t];
        BoxBuffer &box = boxes[t];
        box.lo.clear();
        box.size.clear();
        for (const std::string &x : acc->indices) {
          DynRange r = cl.range(ib, x, fs, nullptr);
          box.lo.push_back(r.lo);
          box.size.push_back(r.size);
        }
        SmallVector<Value> lo = box.lo, size = box.size;
        if (lo.empty()) {
          lo.push_back(idx(ib, loc, 0));
          size.push_back(idx(ib, loc, 1));
        }
        Value loP = indexArray(ib, loc, loArr[t], lo);
        Value sizeP = indexArray(ib, loc, sizeArr[t], size);
        Value tile = tileOf(op, values[t]);
        if (!tile)
          return failure();
        Value desc = constArray(ib, loc, layoutDescriptor(types[t]));
        Value dt = i64(ib, loc, dtype);
        if (t == stmt.lhs.tensor) {
          // A local output whose box is the whole tile accumulates into the
          // tile directly (it holds the zeroed output, or the old values
          // for `+=`); otherwise partial results start at zero in the
          // buffer.
          Value isTile;
          if (plan.kind == TransferPlan::Kind::Local && !sharesOutput(t))
            isTile = aliasTile(ib, t, tile, desc, loP, sizeP);
          Value cap = idx(ib, loc, capacity[t]);
          Value zero = isa<FloatType>(elt)
                           ? (Value)arith::ConstantOp::create(
                                 ib, loc, elt, ib.getFloatAttr(elt, 0.0))
                           : (Value)arith::ConstantOp::create(
                                 ib, loc, elt, ib.getIntegerAttr(elt, 0));
          auto zeroBuf = [&](OpBuilder &zb) {
            scf::ForOp::create(zb, loc, idx(zb, loc, 0), cap, idx(zb, loc, 1),
                               ValueRange{},
                               [&](OpBuilder &fb, Location l, Value i,
                                   ValueRange) {
                                 memref::StoreOp::create(fb, l, zero,
                                                         firstBufs[t],
                                                         ValueRange{i});
                                 scf::YieldOp::create(fb, l);
                               });
          };
          if (isTile)
            unlessAliased(ib, isTile, zeroBuf);
          else
            zeroBuf(ib);
          continue;
        }
        Value tileP = ptrOf(ib, loc, tile);
        auto fetch = [&](OpBuilder &fb) {
          call(fb, loc, "distrt_fetch_box",
               {g, desc, tileP, dt, loP, sizeP, ptrOf(fb, loc, box.memref)});
        };
        switch (plan.kind) {
        case TransferPlan::Kind::Local: {
          auto copy = [&](OpBuilder &cb) {
            call(cb, loc, "distrt_copy_box_local",
                 {g, desc, tileP, dt, loP, sizeP,
                  ptrOf(cb, loc, firstBufs[t])});
          };
          // The whole tile: read it in place.
          if (sharesOutput(t))
            copy(ib);
          else
            unlessAliased(ib, aliasTile(ib, t, tile, desc, loP, sizeP), copy);
          break;
        }
        case TransferPlan::Kind::Broadcast: {
          Value root = rootAt(ib, plan, k);
          Value me = toIndex(
              ib, loc,
              call(ib, loc, "distrt_axes_rank",
                   {g, i64(ib, loc, maskOf(plan.axes))}));
          Value isRoot = arith::CmpIOp::create(
              ib, loc, arith::CmpIPredicate::eq, me, root);
          scf::IfOp::create(ib, loc, isRoot, [&](OpBuilder &tb, Location l) {
            call(tb, l, "distrt_copy_box_local",
                 {g, desc, tileP, dt, loP, sizeP, ptrOf(tb, l, box.memref)});
            scf::YieldOp::create(tb, l);
          });
          BroadcastOp::create(ib, loc, gridRef,
                              ib.getDenseI64ArrayAttr(plan.axes),
                              viewOf(ib, box), root);
          break;
        }
        case TransferPlan::Kind::AllGather: {
          Value pLo, pSize;
          Value vol = pieceOf(ib, plan, t, pLo, pSize);
          call(ib, loc, "distrt_copy_box_local",
               {g, desc, tileP, dt, pLo, pSize, ptrOf(ib, loc, sendBufs[t])});
          AllGatherOp::create(ib, loc, gridRef,
                              ib.getDenseI64ArrayAttr(plan.axes),
                              flatView(ib, sendBufs[t], vol), viewOf(ib, box));
          break;
        }
        case TransferPlan::Kind::PointToPoint:
          emitPermutation(ib, plan, k, t, desc, tileP, dt);
          break;
        case TransferPlan::Kind::Shift: {
          // Align (a permutation, or the general exchange), then shift at
          // every later step.
          Value first = arith::CmpIOp::create(
              ib, loc, arith::CmpIPredicate::eq,
              cl.fixed[localLoops[k - 1]->name], idx(ib, loc, 0));
          scf::IfOp::create(
              ib, loc, first,
              [&](OpBuilder &tb, Location l) {
                if (plan.alignLocal)
                  call(tb, l, "distrt_copy_box_local",
                       {g, desc, tileP, dt, loP, sizeP,
                        ptrOf(tb, l, box.memref)});
                else if (plan.alignByPermutation)
                  emitPermutation(tb, plan, k, t, desc, tileP, dt);
                else
                  fetch(tb);
                scf::YieldOp::create(tb, l);
              },
              [&](OpBuilder &eb, Location l) {
                ShiftOp::create(eb, l, gridRef,
                                eb.getI64IntegerAttr(plan.shiftAxis),
                                eb.getI64IntegerAttr(plan.shiftOffset),
                                viewOf(eb, box));
                scf::YieldOp::create(eb, l);
              });
          break;
        }
        default:
          fetch(ib);
        }
      }
      return success();
    };
    auto exitLevel = [&](OpBuilder &ib, unsigned k) {
      const std::string &t = stmt.lhs.tensor;
      if (level[t] != k)
        return;
      const TransferPlan &plan = plans[t];
      BoxBuffer &box = boxes[t];
      SmallVector<Value> lo = box.lo, size = box.size;
      if (lo.empty()) {
        lo.push_back(idx(ib, loc, 0));
        size.push_back(idx(ib, loc, 1));
      }
      Value loP = indexArray(ib, loc, loArr[t], lo);
      Value sizeP = indexArray(ib, loc, sizeArr[t], size);
      Value dt = i64(ib, loc, dtype);
      Value tileP = ptrOf(ib, loc, outTile);
      auto addLocal = [&](OpBuilder &fb) {
        call(fb, loc, "distrt_add_box_local",
             {g, outDesc, tileP, dt, loP, sizeP, ptrOf(fb, loc, box.memref)});
      };
      switch (plan.kind) {
      case TransferPlan::Kind::Local:
        // Nothing to add when the box was the tile itself.
        if (Value isTile = aliasOf.lookup(t))
          unlessAliased(ib, isTile, addLocal);
        else
          addLocal(ib);
        break;
      case TransferPlan::Kind::Reduce: {
        Value root = rootAt(ib, plan, k);
        ReduceOp::create(
            ib, loc, gridRef, ib.getDenseI64ArrayAttr(plan.axes),
            viewOf(ib, box),
            ReductionKindAttr::get(ib.getContext(), ReductionKind::sum), root);
        Value me = toIndex(
            ib, loc,
            call(ib, loc, "distrt_axes_rank",
                 {g, i64(ib, loc, maskOf(plan.axes))}));
        Value isRoot =
            arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::eq, me, root);
        scf::IfOp::create(ib, loc, isRoot, [&](OpBuilder &tb, Location l) {
          addLocal(tb);
          scf::YieldOp::create(tb, l);
        });
        break;
      }
      case TransferPlan::Kind::ReduceScatter: {
        Value pLo, pSize;
        Value vol = pieceOf(ib, plan, t, pLo, pSize);
        ReduceScatterOp::create(
            ib, loc, gridRef, ib.getDenseI64ArrayAttr(plan.axes),
            viewOf(ib, box), flatView(ib, sendBufs[t], vol),
            ReductionKindAttr::get(ib.getContext(), ReductionKind::sum));
        call(ib, loc, "distrt_add_box_local",
             {g, outDesc, tileP, dt, pLo, pSize,
              ptrOf(ib, loc, sendBufs[t])});
        break;
      }
      case TransferPlan::Kind::AllReduce:
        AllReduceOp::create(
            ib, loc, gridRef, ib.getDenseI64ArrayAttr(plan.axes),
            viewOf(ib, box),
            ReductionKindAttr::get(ib.getContext(), ReductionKind::sum));
        addLocal(ib);
        break;
      default:
        call(ib, loc, "distrt_accumulate_box",
             {g, outDesc, tileP, dt, loP, sizeP,
              ptrOf(ib, loc, box.memref)});
      }
    };

    // The leaf: GEMM when the operands fit, scalar loops otherwise.
    // MTTKRP leaf: the Khatri-Rao product of the two matrices goes into a
    // scratch buffer allocated here, once.
    // A substituted leaf that cannot apply is an error, unless the user
    // asked for scalar loops instead (leaf-fallback).
    auto cannotSubstitute = [&](StringRef why) -> LogicalResult {
      if (leafFallback) {
        op.emitWarning() << "substitute(..., " << nest.kernel
                         << ") cannot apply (" << why
                         << "); using scalar loops (leaf-fallback)";
        return success();
      }
      return op.emitError()
             << "substitute(..., " << nest.kernel << ") cannot apply: "
             << why
             << "; change the schedule or the layouts, remove the "
                "substitute command, or ask for scalar loops in its place "
                "with the pass option leaf-fallback (dist-run "
                "--leaf-fallback)";
    };
    MttkrpRoles roles;
    Value krBuf;
    bool mttkrpLeaf = false;
    std::optional<int64_t> krCap;
    if (nest.kernel == "mttkrp") {
      llvm::StringSet<> fs = fixedAt(leafLevel);
      std::string why;
      if (!mttkrpRoles(stmt, nest, roles))
        why = "the statement is not A(i,l) = B(i,j,k) * C(j,l) * D(k,l)";
      else if (!mttkrpFits(cl, stmt, roles, fs, elt))
        why = "the element type is not f32 or f64, or a leaf range is not "
              "the same whole interval at every step";
      else {
        krCap = mulWithin(cl.staticRange(roles.j, fs).maxSize,
                          cl.staticRange(roles.k, fs).maxSize,
                          kMaxTensorElements);
        if (krCap)
          krCap = mulWithin(*krCap, cl.staticRange(roles.l, fs).maxSize,
                            kMaxTensorElements);
        if (!krCap)
          why = "its Khatri-Rao product buffer would exceed the element "
                "limit";
      }
      mttkrpLeaf = why.empty();
      if (!mttkrpLeaf && failed(cannotSubstitute(why)))
        return failure();
    }
    if (mttkrpLeaf)
      krBuf = allocChecked(b, loc, MemRefType::get({*krCap}, elt), {},
                           "the Khatri-Rao buffer of the mttkrp leaf");

    std::function<void(OpBuilder &, unsigned)> nestLoops;
    bool gemmWarned = false;
    // A library leaf runs only where every variable's range is non-empty:
    // past the uneven tail of a split outside the leaf its pointers would
    // lie past the buffers. `body` fails without emitting anything (the
    // guard is then dropped).
    auto underNonEmpty =
        [&](OpBuilder &ib,
            function_ref<LogicalResult(OpBuilder &)> body) -> LogicalResult {
      Value ok;
      for (const std::string &x : stmt.indexVariables()) {
        DynRange r = cl.range(ib, x, fixedAt(leafLevel), nullptr);
        Value ne = arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::sgt,
                                         r.size, idx(ib, loc, 0));
        ok = ok ? (Value)arith::AndIOp::create(ib, loc, ok, ne) : ne;
      }
      if (!ok)
        return body(ib);
      auto ifOp = scf::IfOp::create(ib, loc, ok, /*withElseRegion=*/false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      if (failed(body(tb))) {
        ifOp.erase();
        return failure();
      }
      return success();
    };
    auto emitLeaf = [&](OpBuilder &ib) -> LogicalResult {
      if (nest.kernel == "gemm") {
        std::string why;
        if (succeeded(underNonEmpty(ib, [&](OpBuilder &tb) {
              return tryEmitGemm(tb, cl, stmt, boxes, leafLevel,
                                 fixedAt(leafLevel), elt, why);
            })))
          return success();
        if (!gemmWarned && failed(cannotSubstitute(why)))
          return failure();
        gemmWarned = true;
      }
      if (mttkrpLeaf)
        return underNonEmpty(ib, [&](OpBuilder &tb) {
          emitMttkrp(tb, cl, stmt, roles, boxes, fixedAt(leafLevel), elt,
                     krBuf, [&](OpBuilder &fb) { nestLoops(fb, leafLevel); });
          return success();
        });
      if (leafLevel < localLoops.size() &&
          succeeded(tryEmitLinalg(ib, cl, stmt, boxes, fixedAt(leafLevel),
                                  elt)))
        return success();
      nestLoops(ib, leafLevel);
      return success();
    };
    // Scalar loops over the remaining local loops.
    nestLoops = [&](OpBuilder &lb, unsigned k) {
            if (k == localLoops.size()) {
              llvm::StringSet<> all = fixedAt(k);
              SmallVector<Value> guards;
              llvm::StringMap<Value> vals;
              for (const std::string &x : stmt.indexVariables()) {
                DynRange r = cl.range(lb, x, all, &guards);
                vals[x] = r.lo;
                guards.push_back(arith::CmpIOp::create(
                    lb, loc, arith::CmpIPredicate::slt, r.lo,
                    idx(lb, loc, extents[x])));
              }
              // A statement without index variables: one point, no guard.
              if (guards.empty()) {
                emitPointUpdate(lb, loc, elt, boxes, stmt,
                                [&](StringRef x) { return vals[x]; });
                return;
              }
              Value ok = guards.front();
              for (Value gv : ArrayRef<Value>(guards).drop_front())
                ok = arith::AndIOp::create(lb, loc, ok, gv);
              scf::IfOp::create(lb, loc, ok, [&](OpBuilder &tb, Location l) {
                emitPointUpdate(tb, l, elt, boxes, stmt,
                                [&](StringRef x) { return vals[x]; });
                scf::YieldOp::create(tb, l);
              });
              return;
            }
            const Loop *l = localLoops[k];
            scf::ForOp::create(
                lb, loc, idx(lb, loc, 0), idx(lb, loc, l->extent),
                idx(lb, loc, 1), ValueRange{},
                [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                  cl.fixed[l->name] = iv;
                  nestLoops(fb, k + 1);
                  scf::YieldOp::create(fb, loc);
                });
          };

    // Without a library leaf, the loops below every communicate point and
    // every parallelized loop become one linalg.generic when their ranges
    // are exact (tryEmitLinalg); scalar loops with bounds checks otherwise.
    unsigned loopLeaf = leafLevel;
    if (leafLevel == localLoops.size()) {
      loopLeaf = 0;
      for (const std::string &t : names)
        loopLeaf = std::max(loopLeaf, level[t]);
      for (auto [k, l] : llvm::enumerate(localLoops))
        if (l->parallel)
          loopLeaf = std::max(loopLeaf, (unsigned)k + 1);
    }

    // The time loops down to the leaf, with communication at each level.
    bool failedInside = false;
    std::function<void(OpBuilder &, unsigned)> emitLevel =
        [&](OpBuilder &lb, unsigned k) {
          if (failed(enterLevel(lb, k))) {
            failedInside = true;
            return;
          }
          if (k == leafLevel) {
            if (failed(emitLeaf(lb)))
              failedInside = true;
          } else if (k == loopLeaf &&
                     succeeded(tryEmitLinalg(lb, cl, stmt, boxes, fixedAt(k),
                                             elt))) {
            // The remaining loops are the linalg.generic's.
          } else if (localLoops[k]->parallel) {
            // parallelize: threads inside the rank (scf.parallel, lowered
            // to OpenMP by the pipeline).
            const Loop *l = localLoops[k];
            scf::ParallelOp::create(
                lb, loc, ValueRange{idx(lb, loc, 0)},
                ValueRange{idx(lb, loc, l->extent)},
                ValueRange{idx(lb, loc, 1)},
                [&](OpBuilder &fb, Location, ValueRange ivs) {
                  cl.fixed[l->name] = ivs.front();
                  emitLevel(fb, k + 1);
                });
          } else {
            const Loop *l = localLoops[k];
            overlapPrologue(lb, k + 1);
            scf::ForOp::create(
                lb, loc, idx(lb, loc, 0), idx(lb, loc, l->extent),
                idx(lb, loc, 1), ValueRange{},
                [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                  cl.fixed[l->name] = iv;
                  emitLevel(fb, k + 1);
                  scf::YieldOp::create(fb, loc);
                });
          }
          exitLevel(lb, k);
        };
    emitLevel(b, 0);
    if (failedInside)
      return failure();

    if (krBuf)
      memref::DeallocOp::create(b, loc, krBuf);
    for (const std::string &t : names) {
      memref::DeallocOp::create(b, loc, firstBufs[t]);
      if (Value ab = altBufs.lookup(t))
        memref::DeallocOp::create(b, loc, ab);
      if (Value sb = sendBufs.lookup(t))
        memref::DeallocOp::create(b, loc, sb);
    }

    if (timing) {
      call(b, loc, "distrt_barrier", {g, allAxes()});
      Value end = call(b, loc, "distrt_wtime", {});
      Value secs = arith::SubFOp::create(b, loc, end, timer);
      std::string text;
      llvm::raw_string_ostream os(text);
      stmt.print(os);
      call(b, loc, "distrt_report_time",
           {g, constString(b, loc, text), secs});
    }
    if (check)
      emitCheck(b, op, stmt, types, values, g, elt, before);
    return success();
  }

  /// Statement variables and tensors in the roles of
  /// A(i,l) = B(i,j,k) * C(j,l) * D(k,l), with B's last two indices j, k.
  struct MttkrpRoles {
    std::string i, j, k, l;
    const Access *out = nullptr, *t = nullptr, *mj = nullptr, *mk = nullptr;
  };

  static bool mttkrpRoles(const IndexStatement &stmt, const LoopNest &nest,
                          MttkrpRoles &r) {
    SmallVector<const Access *> ins = stmt.rhsAccesses();
    if (ins.size() != 3 || stmt.lhs.indices.size() != 2)
      return false;
    for (const Access *a : ins)
      if (a->indices.size() == 3)
        r.t = a;
    if (!r.t)
      return false;
    r.out = &stmt.lhs;
    r.j = r.t->indices[1];
    r.k = r.t->indices[2];
    r.i = r.t->indices[0];
    r.l = r.out->indices[1];
    if (r.out->indices[0] != r.i)
      return false;
    for (const Access *a : ins) {
      if (a == r.t || a->indices.size() != 2 || a->indices[1] != r.l)
        continue;
      if (a->indices[0] == r.j)
        r.mj = a;
      else if (a->indices[0] == r.k)
        r.mk = a;
    }
    (void)nest;
    return r.mj && r.mk && r.mj != r.mk;
  }

  /// Whether the leaf ranges are exact intervals (so a GEMM covers exactly
  /// the leaf's points) for a float type.
  static bool mttkrpFits(ComputeLowering &cl, const IndexStatement &stmt,
                         const MttkrpRoles &r, const llvm::StringSet<> &fs,
                         Type elt) {
    (void)stmt;
    if (!elt.isF32() && !elt.isF64())
      return false;
    for (const std::string &x : {r.i, r.j, r.k, r.l})
      if (!cl.staticRange(x, fs).exact)
        return false;
    return true;
  }

  /// out(I, L) += T(I, JK) * KR(JK, L) with KR(j*K + k, l) = Mj(j,l) Mk(k,l):
  /// one GEMM when T's (j, k) block is contiguous in its buffer (the leaf
  /// covers T's whole k range), the scalar loops otherwise.
  void emitMttkrp(OpBuilder &b, ComputeLowering &cl, const IndexStatement &stmt,
                  const MttkrpRoles &r, llvm::StringMap<BoxBuffer> &boxes,
                  const llvm::StringSet<> &fs, Type elt, Value krBuf,
                  function_ref<void(OpBuilder &)> fallback) {
    Location loc = cl.op.getLoc();
    llvm::StringMap<DynRange> ranges;
    for (const std::string &x : stmt.indexVariables())
      ranges[x] = cl.range(b, x, fs, nullptr);
    BoxBuffer &tb = boxes[r.t->tensor];
    // T's box extents along k (its last dimension).
    Value contiguous = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, ranges[r.k].size, tb.size[2]);
    scf::IfOp::create(
        b, loc, contiguous,
        [&](OpBuilder &ib, Location l) {
          Value nj = ranges[r.j].size, nk = ranges[r.k].size,
                nl = ranges[r.l].size;
          // The Khatri-Rao product.
          auto loop = [&](OpBuilder &lb, Value ub,
                          function_ref<void(OpBuilder &, Value)> body) {
            scf::ForOp::create(lb, l, idx(lb, l, 0), ub, idx(lb, l, 1),
                               ValueRange{},
                               [&](OpBuilder &fb, Location fl, Value iv,
                                   ValueRange) {
                                 body(fb, iv);
                                 scf::YieldOp::create(fb, fl);
                               });
          };
          loop(ib, nj, [&](OpBuilder &jb, Value j) {
            loop(jb, nk, [&](OpBuilder &kb, Value k) {
              loop(kb, nl, [&](OpBuilder &lb, Value li) {
                Value gj = arith::AddIOp::create(lb, l, ranges[r.j].lo, j);
                Value gk = arith::AddIOp::create(lb, l, ranges[r.k].lo, k);
                Value gl = arith::AddIOp::create(lb, l, ranges[r.l].lo, li);
                Value a = memref::LoadOp::create(
                    lb, l, boxes[r.mj->tensor].memref,
                    ValueRange{boxOffset(lb, l, boxes[r.mj->tensor], {gj, gl})});
                Value c = memref::LoadOp::create(
                    lb, l, boxes[r.mk->tensor].memref,
                    ValueRange{boxOffset(lb, l, boxes[r.mk->tensor], {gk, gl})});
                Value prod = arith::MulFOp::create(lb, l, a, c);
                Value at = arith::AddIOp::create(
                    lb, l,
                    arith::MulIOp::create(
                        lb, l,
                        arith::AddIOp::create(
                            lb, l, arith::MulIOp::create(lb, l, j, nk), k),
                        nl),
                    li);
                memref::StoreOp::create(lb, l, prod, krBuf, ValueRange{at});
              });
            });
          });
          // The GEMM.
          BoxBuffer &ob = boxes[r.out->tensor];
          Value tOff = boxOffset(ib, l, tb,
                                 {ranges[r.i].lo, ranges[r.j].lo,
                                  ranges[r.k].lo});
          Value oOff = boxOffset(ib, l, ob, {ranges[r.i].lo, ranges[r.l].lo});
          Value tP = LLVM::GEPOp::create(ib, l, ptrTy, elt,
                                         ptrOf(ib, l, tb.memref),
                                         ValueRange{toI64(ib, l, tOff)});
          Value oP = LLVM::GEPOp::create(ib, l, ptrTy, elt,
                                         ptrOf(ib, l, ob.memref),
                                         ValueRange{toI64(ib, l, oOff)});
          Value lda = toI64(ib, l, arith::MulIOp::create(ib, l, tb.size[1],
                                                         tb.size[2]));
          Value one =
              arith::ConstantOp::create(ib, l, f64Ty, ib.getF64FloatAttr(1.0));
          call(ib, l, elt.isF64() ? "distrt_gemm_t_f64" : "distrt_gemm_t_f32",
               {i64(ib, l, 0), i64(ib, l, 0), toI64(ib, l, ranges[r.i].size),
                toI64(ib, l, nl),
                toI64(ib, l, arith::MulIOp::create(ib, l, nj, nk)), one, tP,
                lda, ptrOf(ib, l, krBuf), toI64(ib, l, nl), one, oP,
                toI64(ib, l, ob.size[1])});
          scf::YieldOp::create(ib, l);
        },
        [&](OpBuilder &eb, Location l) {
          fallback(eb);
          scf::YieldOp::create(eb, l);
        });
  }

  /// The leaf as one linalg.generic over strided views of the boxes, when
  /// every statement variable covers an exact interval at the leaf (the
  /// leaf's points are then a box of the iteration space, visited once
  /// each). The pipeline lowers it to loops that the LLVM backend
  /// vectorises (a floating-point sum over reduction loops is marked
  /// reassociable for that). Fails (the guarded scalar loops are used
  /// instead) when a range is not exact, the output repeats an index or the
  /// output tensor is also read.
  LogicalResult tryEmitLinalg(OpBuilder &b, ComputeLowering &cl,
                              const IndexStatement &stmt,
                              llvm::StringMap<BoxBuffer> &boxes,
                              const llvm::StringSet<> &fixedSet, Type elt) {
    Location loc = cl.op.getLoc();
    SmallVector<std::string> vars = stmt.indexVariables();
    for (const std::string &x : vars)
      if (!cl.staticRange(x, fixedSet).exact)
        return failure();
    SmallVector<const Access *> ins = stmt.rhsAccesses();
    for (const Access *a : ins)
      if (a->tensor == stmt.lhs.tensor)
        return failure();
    for (auto [i, x] : llvm::enumerate(stmt.lhs.indices))
      if (llvm::is_contained(ArrayRef(stmt.lhs.indices).take_front(i), x))
        return failure();
    llvm::StringMap<DynRange> ranges;
    llvm::StringMap<unsigned> position;
    for (auto [i, x] : llvm::enumerate(vars)) {
      ranges[x] = cl.range(b, x, fixedSet, nullptr);
      position[x] = i;
    }
    MLIRContext *ctx = b.getContext();
    // The view of an access: the box's elements at the leaf's ranges, with
    // the box's row-major strides.
    auto viewOf = [&](const Access *a) -> Value {
      BoxBuffer &box = boxes[a->tensor];
      int64_t rank = a->indices.size();
      SmallVector<Value> at;
      for (const std::string &x : a->indices)
        at.push_back(ranges[x].lo);
      Value offset = boxOffset(b, loc, box, at);
      // A box read in place is a view into its tile: start at its offset.
      if (isa<StridedLayoutAttr>(
              cast<MemRefType>(box.memref.getType()).getLayout()))
        offset = arith::AddIOp::create(
            b, loc, offset,
            memref::ExtractStridedMetadataOp::create(b, loc, box.memref)
                .getOffset());
      SmallVector<OpFoldResult> sizes(rank), strides(rank);
      Value stride = idx(b, loc, 1);
      for (int64_t d = rank - 1; d >= 0; --d) {
        sizes[d] = ranges[a->indices[d]].size;
        strides[d] = stride;
        stride = arith::MulIOp::create(b, loc, stride, box.size[d]);
      }
      auto layout = StridedLayoutAttr::get(
          ctx, ShapedType::kDynamic,
          SmallVector<int64_t>(rank, ShapedType::kDynamic));
      auto type = MemRefType::get(
          SmallVector<int64_t>(rank, ShapedType::kDynamic), elt, layout);
      return memref::ReinterpretCastOp::create(b, loc, type, box.memref,
                                               OpFoldResult(offset), sizes,
                                               strides);
    };
    auto mapOf = [&](const Access *a) {
      SmallVector<AffineExpr> results;
      for (const std::string &x : a->indices)
        results.push_back(getAffineDimExpr(position[x], ctx));
      return AffineMap::get(vars.size(), 0, results, ctx);
    };
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (const Access *a : ins) {
      inputs.push_back(viewOf(a));
      maps.push_back(mapOf(a));
    }
    Value output = viewOf(&stmt.lhs);
    maps.push_back(mapOf(&stmt.lhs));
    SmallVector<utils::IteratorType> iterators;
    for (const std::string &x : vars)
      iterators.push_back(llvm::is_contained(stmt.lhs.indices, x)
                              ? utils::IteratorType::parallel
                              : utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(elt);
    // A sum over reduction loops may be reassociated, so that the backend
    // can split it over vector lanes (a distributed reduction reassociates
    // it anyway); without this the leaf's loop stays scalar.
    bool reduces =
        llvm::is_contained(iterators, utils::IteratorType::reduction);
    auto fastmath = arith::FastMathFlagsAttr::get(
        b.getContext(), reduces ? arith::FastMathFlags::reassoc
                                : arith::FastMathFlags::none);
    AddendGuards addends = addendGuards(stmt);
    linalg::GenericOp::create(
        b, loc, inputs, ValueRange{output}, maps, iterators,
        [&](OpBuilder &gb, Location l, ValueRange args) {
          auto load = [&](const Access &a) -> Value {
            for (auto [i, in] : llvm::enumerate(ins))
              if (in == &a)
                return args[i];
            return Value();
          };
          // A variable's global value: the leaf's lower bound plus the
          // generic's iteration index.
          auto indexOf = [&](StringRef x) -> Value {
            Value it = linalg::IndexOp::create(gb, l, position[x]);
            return arith::AddIOp::create(gb, l, ranges[x].lo, it);
          };
          Value v = emitExpr(gb, l, stmt.rhs.get(), elt, load,
                             Guards{addends, indexOf});
          Value acc = args.back();
          Value sum =
              isFloat ? (Value)arith::AddFOp::create(gb, l, acc, v, fastmath)
                      : (Value)arith::AddIOp::create(gb, l, acc, v);
          linalg::YieldOp::create(gb, l, sum);
        });
    return success();
  }

  /// A GEMM call for the leaf when the buffers are laid out for it.
  LogicalResult tryEmitGemm(OpBuilder &b, ComputeLowering &cl,
                            const IndexStatement &stmt,
                            llvm::StringMap<BoxBuffer> &boxes,
                            unsigned leafLevel,
                            const llvm::StringSet<> &fixedSet, Type elt,
                            std::string &whyNot) {
    auto cannot = [&](const Twine &why) {
      whyNot = why.str();
      return failure();
    };
    Location loc = cl.op.getLoc();
    SmallVector<const Access *> ins = stmt.rhsAccesses();
    if (ins.size() != 2 || stmt.rhs->kind != IndexExpr::Kind::Mul ||
        stmt.rhs->lhs->kind != IndexExpr::Kind::Access ||
        stmt.rhs->rhs->kind != IndexExpr::Kind::Access)
      return cannot("the right-hand side is not a product of two accesses "
                    "(no constants, negation, sums or third operand)");
    if (!elt.isF64() && !elt.isF32())
      return cannot("the element type is not f32 or f64");
    // Roles of the leaf variables' origins.
    std::string m, n, k;
    for (const std::string &v : cl.nest.substituteVars) {
      std::string o = cl.nest.originsOf(v).front();
      auto uses = [&](const Access *a) {
        return llvm::is_contained(a->indices, o);
      };
      if (uses(&stmt.lhs) && uses(ins[0]))
        m = o;
      else if (uses(&stmt.lhs) && uses(ins[1]))
        n = o;
      else
        k = o;
    }
    // Each role's range at the leaf must be an exact interval, and the
    // column index of each operand its last dimension.
    for (const std::string &x : {m, n, k})
      if (!cl.staticRange(x, fixedSet).exact)
        return cannot("the leaf's range of '" + x +
                      "' is not one interval at every step");
    auto lastIs = [](const Access *a, StringRef x) {
      return !a->indices.empty() && a->indices.back() == x;
    };
    // op(A) is m x k, op(B) k x n, C m x n; an operand whose last dimension
    // is its row index is passed transposed.
    bool transA, transB;
    if (lastIs(ins[0], k))
      transA = false;
    else if (lastIs(ins[0], m))
      transA = true;
    else
      return cannot(ins[0]->tensor + "'s last index is neither '" + m +
                    "' nor '" + k + "'");
    if (lastIs(ins[1], n))
      transB = false;
    else if (lastIs(ins[1], k))
      transB = true;
    else
      return cannot(ins[1]->tensor + "'s last index is neither '" + k +
                    "' nor '" + n + "'");
    if (!lastIs(&stmt.lhs, n))
      return cannot("the output " + stmt.lhs.tensor +
                    "'s last index is not the column index '" + n + "'");
    // Values of every statement variable at the leaf's origin.
    llvm::StringMap<DynRange> ranges;
    for (const std::string &x : stmt.indexVariables())
      ranges[x] = cl.range(b, x, fixedSet, nullptr);
    auto pointerAt = [&](const Access *a) {
      BoxBuffer &box = boxes[a->tensor];
      SmallVector<Value> at;
      for (const std::string &x : a->indices)
        at.push_back(ranges[x].lo);
      Value off = boxOffset(b, loc, box, at);
      Value base = ptrOf(b, loc, box.memref);
      return LLVM::GEPOp::create(b, loc, ptrTy, elt, base,
                                 ValueRange{toI64(b, loc, off)});
    };
    auto strideOf = [&](const Access *a, StringRef x) {
      BoxBuffer &box = boxes[a->tensor];
      Value s = idx(b, loc, 1);
      for (int64_t d = a->indices.size() - 1; d >= 0; --d) {
        if (a->indices[d] == x)
          return toI64(b, loc, s);
        s = arith::MulIOp::create(b, loc, s, box.size[d]);
      }
      return toI64(b, loc, s);
    };
    Value one = arith::ConstantOp::create(b, loc, f64Ty,
                                          b.getF64FloatAttr(1.0));
    StringRef fn = elt.isF64() ? "distrt_gemm_t_f64" : "distrt_gemm_t_f32";
    call(b, loc, fn,
         {i64(b, loc, transA), i64(b, loc, transB),
          toI64(b, loc, ranges[m].size), toI64(b, loc, ranges[n].size),
          toI64(b, loc, ranges[k].size), one, pointerAt(ins[0]),
          strideOf(ins[0], transA ? k : m), pointerAt(ins[1]),
          strideOf(ins[1], transB ? n : k), one, pointerAt(&stmt.lhs),
          strideOf(&stmt.lhs, m)});
    (void)leafLevel;
    return success();
  }

  /// Whole copies, on rank 0, of every input and (for `+=`) of the output
  /// as they are before the computation.
  llvm::StringMap<Value> gatherForCheck(OpBuilder &b, Location loc,
                                        const IndexStatement &stmt,
                                        llvm::StringMap<DistTensorType> &types,
                                        llvm::StringMap<Value> &values,
                                        Value g, Type elt) {
    llvm::StringMap<Value> globals;
    for (const std::string &t : stmt.tensorNames()) {
      DistTensorType type = types[t];
      Value whole = memref::AllocOp::create(
          b, loc, MemRefType::get({type.getNumElements()}, elt));
      globals[t] = whole;
      if (t != stmt.lhs.tensor || stmt.accumulate)
        call(b, loc, "distrt_layout_gather",
             {g, constArray(b, loc, layoutDescriptor(type)),
              ptrOf(b, loc, tiles.lookup(values[t])),
              i64(b, loc, dtypeOf(elt)), ptrOf(b, loc, whole),
              i64(b, loc, 0)});
    }
    return globals;
  }

  /// Reference check: rank 0 evaluates the unscheduled statement over the
  /// copies `globals` made before the computation with the runtime's own
  /// evaluator of index notation (distrt_reference_*, which shares no code
  /// with this lowering), and the runtime compares every copy of the output
  /// on every process with it. Every copy of every input must still equal
  /// its copy from before.
  void emitCheck(OpBuilder &b, ComputeOp op, const IndexStatement &stmt,
                 llvm::StringMap<DistTensorType> &types,
                 llvm::StringMap<Value> &values, Value g, Type elt,
                 llvm::StringMap<Value> &globals) {
    Location loc = op.getLoc();
    Value rank = call(b, loc, "distrt_grid_rank", {g});
    Value isRoot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         rank, i64(b, loc, 0));
    std::string text;
    llvm::raw_string_ostream os(text);
    stmt.print(os);
    SmallVector<std::string> names = stmt.tensorNames();
    scf::IfOp::create(b, loc, isRoot, [&](OpBuilder &tb, Location l) {
      Value ref = call(tb, l, "distrt_reference_begin",
                       {constString(tb, l, text), i64(tb, l, dtypeOf(elt))});
      for (const std::string &t : names) {
        ArrayRef<int64_t> shape = types[t].getShape();
        SmallVector<int64_t> dims(shape);
        if (dims.empty())
          dims.push_back(1); // an order-0 tensor: rank 0, one element
        call(tb, l, "distrt_reference_bind",
             {ref, constString(tb, l, t), i64(tb, l, shape.size()),
              constArray(tb, l, dims), ptrOf(tb, l, globals[t])});
      }
      call(tb, l, "distrt_reference_run", {ref});
      scf::YieldOp::create(tb, l);
    });
    double tol = tolerance;
    if (tol < 0)
      tol = elt.isF64() ? 1e-12 : elt.isF32() ? 1e-4 : 0.0;
    auto checkAgainst = [&](StringRef fn, StringRef t, StringRef label,
                            double tolerance) {
      call(b, loc, fn,
           {g, constString(b, loc, label),
            constArray(b, loc, layoutDescriptor(types[t])),
            ptrOf(b, loc, tiles.lookup(values[t])),
            i64(b, loc, dtypeOf(elt)), ptrOf(b, loc, globals[t]),
            arith::ConstantOp::create(b, loc, f64Ty,
                                      b.getF64FloatAttr(tolerance))});
    };
    checkAgainst("distrt_check_result", stmt.lhs.tensor, text, tol);
    for (const std::string &t : names)
      if (t != stmt.lhs.tensor)
        checkAgainst("distrt_check_unchanged", t,
                     "input " + t + " of " + text, 0.0);
    for (const std::string &t : names)
      memref::DeallocOp::create(b, loc, globals[t]);
  }
};

} // namespace
