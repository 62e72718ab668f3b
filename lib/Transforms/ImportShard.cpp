//===- ImportShard.cpp - upstream shard annotations to dist -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-import-shard: shard.grid becomes dist.grid, every tensor value of an
// annotated function gets the dist layout of its sharding, tensor
// arguments become !dist.tensor arguments and tensor results destination
// arguments, reshardings become dist.redistribute and tensor operations
// dist.compute (ImportShardCompute.cpp). Every function is checked and
// planned first, so that an input with anything unsupported gets all its
// located errors and is left as it was.
//
//===----------------------------------------------------------------------===//

#include "ImportShard.h"

#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTIMPORTSHARD
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::shard_import;

DistTensorType FunctionImport::typeOf(Value v, LayoutAttr layout) const {
  ArrayRef<int64_t> shape;
  Type elt;
  if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
    shape = t.getShape();
    elt = t.getElementType();
  } else {
    auto d = cast<DistTensorType>(v.getType());
    shape = d.getShape();
    elt = d.getElementType();
  }
  return DistTensorType::get(v.getContext(), shape, elt, layout);
}

namespace {
/// The dist layout of sharding `s` for a tensor of type `t`: dimension d
/// blocked over split_axes[d] in reverse (upstream numbers the shards of a
/// dimension split over [a, b] as p[a] * P[b] + p[b]; dist's first listed
/// mode varies fastest).
FailureOr<LayoutAttr>
layoutOf(shard::ShardingOp s, RankedTensorType t,
         const llvm::StringMap<SmallVector<int64_t>> &grids) {
  MLIRContext *ctx = s.getContext();
  auto it = grids.find(s.getGrid());
  if (it == grids.end())
    return s.emitError("dist-import-shard: @")
           << s.getGrid()
           << " is not a shard.grid of this module with a static shape";
  ArrayRef<int64_t> grid = it->second;
  ArrayRef<shard::GridAxesAttr> split = s.getSplitAxes().getAxes();
  if (split.size() > (size_t)t.getRank())
    return s.emitError("dist-import-shard: split_axes has ")
           << split.size() << " entries for a tensor of rank " << t.getRank();
  if (!s.getDynamicHaloSizes().empty() ||
      llvm::is_contained(s.getStaticHaloSizes(), ShapedType::kDynamic))
    return s.emitError("dist-import-shard: dynamic halo sizes are not "
                       "imported (dist's layouts are static)");
  if (!s.getDynamicShardedDimsOffsets().empty() ||
      llvm::is_contained(s.getStaticShardedDimsOffsets(), ShapedType::kDynamic))
    return s.emitError("dist-import-shard: dynamic sharded_dims_offsets are "
                       "not imported (dist's layouts are static)");
  ArrayRef<int64_t> offsets = s.getStaticShardedDimsOffsets();
  size_t pos = 0;
  SmallVector<DimDistAttr> dims;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    ArrayRef<int16_t> axes;
    if (d < (int64_t)split.size())
      axes = split[d].asArrayRef();
    if (axes.empty()) {
      dims.push_back(DimDistAttr::get(ctx, {}, PartitionKind::none, 0));
      continue;
    }
    int64_t parts = 1;
    SmallVector<int64_t> modes;
    for (int16_t a : llvm::reverse(axes)) {
      if (a < 0 || a >= (int64_t)grid.size())
        return s.emitError("dist-import-shard: grid axis ")
               << a << " is not an axis of @" << s.getGrid();
      parts *= grid[a];
      modes.push_back(a);
    }
    if (!offsets.empty()) {
      // Upstream's explicit shard boundaries: only dist's blocks of
      // ceil(n / parts) (the last ones short or empty) are expressible.
      int64_t n = t.getDimSize(d), block = (n + parts - 1) / parts;
      SmallVector<int64_t> expected;
      for (int64_t q = 0; q <= parts; ++q)
        expected.push_back(std::min(q * block, n));
      ArrayRef<int64_t> given = pos + parts + 1 <= offsets.size()
                                    ? offsets.slice(pos, parts + 1)
                                    : ArrayRef<int64_t>();
      pos += parts + 1;
      if (given != ArrayRef<int64_t>(expected))
        return s.emitError("dist-import-shard: sharded_dims_offsets of "
                           "dimension ")
               << d << " are not dist's blocks of ceil(" << n << "/" << parts
               << ") elements (["
               << llvm::join(llvm::map_range(
                                 expected,
                                 [](int64_t x) { return std::to_string(x); }),
                             ", ")
               << "]); uneven shards are not expressible as a dist layout";
    }
    dims.push_back(DimDistAttr::get(ctx, modes, PartitionKind::blocked, 0));
  }
  if (!offsets.empty() && pos != offsets.size())
    return s.emitError("dist-import-shard: sharded_dims_offsets has ")
           << offsets.size() << " entries, expected " << pos;
  return LayoutAttr::get(ctx, FlatSymbolRefAttr::get(ctx, s.getGrid()),
                         {LevelLayoutAttr::get(ctx, dims, {}, {})});
}

LayoutAttr replicated(MLIRContext *ctx, StringRef grid, int64_t rank) {
  SmallVector<DimDistAttr> dims(
      rank, DimDistAttr::get(ctx, {}, PartitionKind::none, 0));
  return LayoutAttr::get(ctx, FlatSymbolRefAttr::get(ctx, grid),
                         {LevelLayoutAttr::get(ctx, dims, {}, {})});
}

bool isShardOp(Operation *op) {
  return op->getName().getDialectNamespace() ==
         shard::ShardDialect::getDialectNamespace();
}

bool hasTensors(Operation *op) {
  auto isTensor = [](Type t) { return isa<TensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// Imports one function: `check` plans it without changing anything,
/// `emit` rewrites it.
class FunctionImporter : public FunctionImport {
public:
  FunctionImporter(func::FuncOp func,
                   const llvm::StringMap<SmallVector<int64_t>> &grids)
      : FunctionImport(grids), func(func) {}

  LogicalResult check();
  LogicalResult emit();

private:
  LogicalResult checkTensorType(Value v, Location loc);
  FailureOr<LayoutAttr> shardingLayout(Value sharding, RankedTensorType t,
                                       Location loc);
  FailureOr<LayoutAttr> annotationOf(Value v, Location loc);
  FailureOr<Value> materialize(OpBuilder &b, Value v, Location loc);

  func::FuncOp func;
  std::string defaultGrid;
  llvm::DenseMap<Operation *, ComputePlan> plans;
  llvm::SmallPtrSet<Operation *, 8> ownAllocs;
};

LogicalResult FunctionImporter::checkTensorType(Value v, Location loc) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t)
    return emitError(loc) << "dist-import-shard: " << v.getType()
                          << " is not imported (ranked tensors are)";
  if (!t.hasStaticShape())
    return emitError(loc) << "dist-import-shard: " << t
                          << " has a dynamic shape; dist tensors have "
                             "static shapes";
  if (llvm::is_contained(t.getShape(), 0))
    return emitError(loc) << "dist-import-shard: " << t
                          << " is empty; dist extents are at least 1";
  if (t.getRank() > 8)
    return emitError(loc) << "dist-import-shard: " << t
                          << " has more than 8 dimensions";
  Type e = t.getElementType();
  if (!(e.isF32() || e.isF64() || e.isInteger(32) || e.isInteger(64)))
    return emitError(loc) << "dist-import-shard: " << t
                          << ": dist tensors hold f32, f64, i32 or i64, not "
                          << e;
  return success();
}

FailureOr<LayoutAttr> FunctionImporter::shardingLayout(Value sharding,
                                                       RankedTensorType t,
                                                       Location loc) {
  auto s = sharding.getDefiningOp<shard::ShardingOp>();
  if (!s)
    return emitError(loc) << "dist-import-shard: the sharding is not "
                             "defined by a shard.sharding in this function";
  return layoutOf(s, t, grids);
}

/// The layout of a value not defined by shard.shard: its result annotation,
/// else the one sharding of all its annotate_for_users uses, else
/// replicated on the function's grid.
FailureOr<LayoutAttr> FunctionImporter::annotationOf(Value v, Location loc) {
  auto t = cast<RankedTensorType>(v.getType());
  std::optional<LayoutAttr> result, users;
  bool usersAgree = true;
  // In program order, so that a conflict is reported at the later one.
  SmallVector<shard::ShardOp> annotations;
  for (Operation *user : v.getUsers())
    if (auto sh = dyn_cast<shard::ShardOp>(user))
      annotations.push_back(sh);
  llvm::sort(annotations, [](shard::ShardOp a, shard::ShardOp b) {
    return a->isBeforeInBlock(b);
  });
  for (shard::ShardOp sh : annotations) {
    FailureOr<LayoutAttr> l = shardingLayout(sh.getSharding(), t, sh.getLoc());
    if (failed(l))
      return failure();
    if (!sh.getAnnotateForUsers()) {
      if (result && *result != *l)
        return sh.emitError("dist-import-shard: a second result annotation "
                            "with another sharding (upstream leaves this "
                            "undefined)");
      result = *l;
    } else if (!users) {
      users = *l;
    } else if (*users != *l) {
      usersAgree = false;
    }
  }
  if (result)
    return *result;
  if (users && usersAgree)
    return *users;
  if (defaultGrid.empty())
    return emitError(loc) << "dist-import-shard: this tensor has no sharding "
                             "and the function uses several grids (or "
                             "none); annotate it with shard.shard";
  return replicated(v.getContext(), defaultGrid, t.getRank());
}

LogicalResult FunctionImporter::check() {
  if (!func.getBody().hasOneBlock())
    return func.emitError("dist-import-shard: functions of several blocks "
                          "are not imported");
  Block &entry = func.getBody().front();
  llvm::SetVector<StringRef> gridNames;
  func.walk([&](shard::ShardingOp s) { gridNames.insert(s.getGrid()); });
  if (gridNames.empty() && grids.size() == 1)
    defaultGrid = grids.begin()->first().str();
  if (gridNames.size() == 1)
    defaultGrid = gridNames.front().str();
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, func->getParentOfType<ModuleOp>()))
    if (!uses->empty())
      return uses->begin()->getUser()->emitError(
                 "dist-import-shard: calls of '")
             << func.getSymName()
             << "' are not rewritten; call the imported function from dist "
                "IR (docs/interop.md)";

  bool ok = true;
  for (BlockArgument arg : entry.getArguments()) {
    Location loc = func.getLoc();
    if (!isa<TensorType>(arg.getType()))
      continue;
    if (failed(checkTensorType(arg, loc))) {
      ok = false;
      continue;
    }
    FailureOr<LayoutAttr> l = annotationOf(arg, loc);
    if (failed(l)) {
      ok = false;
      continue;
    }
    info[arg] = {ValueInfo::Kind::Tensor, {}, *l};
  }
  for (Operation &op : entry) {
    if (isa<shard::ShardingOp>(op))
      continue;
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        if (!isa<RankedTensorType>(v.getType())) {
          ret.emitError("dist-import-shard: the function returns ")
              << v.getType()
              << "; only tensor results are imported (they become "
                 "destination arguments)";
          ok = false;
        }
      continue;
    }
    if (op.getNumRegions() && !isa<linalg::LinalgOp>(op)) {
      op.emitError("dist-import-shard: '")
          << op.getName() << "' (an operation with regions) is not imported";
      ok = false;
      continue;
    }
    if (!hasTensors(&op) && !isShardOp(&op))
      continue;
    bool known = isa<shard::ShardOp, tensor::EmptyOp, arith::ConstantOp,
                     linalg::LinalgOp>(op) ||
                 isa_and_nonnull<arith::ArithDialect>(op.getDialect());
    if (!known && !isShardOp(&op)) {
      op.emitError("dist-import-shard: '")
          << op.getName()
          << "' is not imported (linalg operations, element-wise arith on "
             "tensors, tensor.empty and the shard annotations are)";
      ok = false;
      continue;
    }
    if (isShardOp(&op) && !isa<shard::ShardOp>(op)) {
      op.emitError("dist-import-shard: '")
          << op.getName()
          << "' is not imported (shard.grid, shard.sharding and shard.shard "
             "are; partitioned SPMD IR is not)";
      ok = false;
      continue;
    }
    // (A shard.shard has its source's type, checked where it is defined.)
    bool typesOk = true;
    for (Value r : isa<shard::ShardOp>(op) ? ValueRange() : op.getResults())
      typesOk &= succeeded(checkTensorType(r, op.getLoc()));
    if (!typesOk) {
      ok = false;
      continue;
    }
    Value r = op.getNumResults() == 1 ? op.getResult(0) : Value();
    if (auto sh = dyn_cast<shard::ShardOp>(op)) {
      FailureOr<LayoutAttr> l = shardingLayout(
          sh.getSharding(), cast<RankedTensorType>(r.getType()), op.getLoc());
      ValueInfo src = info.lookup(sh.getSrc());
      if (failed(l) || !src.layout) {
        ok = false;
        continue;
      }
      info[r] = {src.kind, src.constant, *l};
      continue;
    }
    ValueInfo vi;
    if (isa<tensor::EmptyOp>(op)) {
      vi.kind = ValueInfo::Kind::Empty;
    } else if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<SplatElementsAttr>(c.getValue());
      if (!dense) {
        op.emitError("dist-import-shard: a tensor constant that is not a "
                     "splat is not imported");
        ok = false;
        continue;
      }
      vi.kind = ValueInfo::Kind::Constant;
      vi.constant = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    } else if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      auto c = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
      if (!c || !isa<RankedTensorType>(r.getType())) {
        op.emitError("dist-import-shard: linalg.fill is imported with a "
                     "constant value on a tensor only");
        ok = false;
        continue;
      }
      vi.kind = ValueInfo::Kind::Constant;
      vi.constant = cast<TypedAttr>(c.getValue());
    } else {
      FailureOr<ComputePlan> plan = planCompute(&op);
      if (failed(plan)) {
        ok = false;
        continue;
      }
      plans[&op] = *plan;
    }
    FailureOr<LayoutAttr> l = annotationOf(r, op.getLoc());
    if (failed(l)) {
      ok = false;
      continue;
    }
    vi.layout = *l;
    info[r] = vi;
  }
  return success(ok);
}

FailureOr<Value> FunctionImporter::materialize(OpBuilder &b, Value v,
                                               Location loc) {
  if (Value m = mapped.lookup(v))
    return m;
  const ValueInfo &vi = info.lookup(v);
  if (vi.kind == ValueInfo::Kind::Empty)
    return emitError(loc) << "dist-import-shard: reads a tensor.empty, whose "
                             "elements are undefined";
  // A constant tensor: a dist.compute of the constant.
  Value out = AllocOp::create(b, loc, typeOf(v, vi.layout));
  ownAllocs.insert(out.getDefiningOp());
  FailureOr<std::string> lit = literal(vi.constant, loc);
  if (failed(lit))
    return failure();
  SmallVector<std::string> idx;
  for (unsigned d = 0; d < cast<DistTensorType>(out.getType()).getRank(); ++d)
    idx.push_back(indexName(d).str());
  std::string lhs = "Y(" + llvm::join(idx, ",") + ")";
  if (failed(emitOwnerComputes(b, loc, lhs + " = " + *lit, "Y", out, idx, {})))
    return failure();
  mapped[v] = out;
  return out;
}

LogicalResult FunctionImporter::emit() {
  MLIRContext *ctx = func.getContext();
  Block &entry = func.getBody().front();
  auto ret = cast<func::ReturnOp>(entry.getTerminator());

  // Destination arguments: one per tensor result, in the returned value's
  // layout.
  SmallVector<BlockArgument> dests;
  for (Value v : ret.getOperands())
    dests.push_back(
        entry.addArgument(typeOf(v, info.lookup(v).layout), func.getLoc()));
  for (BlockArgument arg : entry.getArguments()) {
    auto it = info.find(arg);
    if (it == info.end())
      continue;
    arg.setType(typeOf(arg, it->second.layout));
    mapped[arg] = arg;
  }

  SmallVector<Operation *> old;
  for (Operation &op : entry)
    old.push_back(&op);
  OpBuilder b(ctx);
  for (Operation *op : old) {
    b.setInsertionPoint(op);
    if (auto sh = dyn_cast<shard::ShardOp>(op)) {
      Value r = sh.getResult();
      const ValueInfo &vi = info.lookup(r);
      if (vi.kind != ValueInfo::Kind::Tensor)
        continue;
      FailureOr<Value> src = materialize(b, sh.getSrc(), op->getLoc());
      if (failed(src))
        return failure();
      DistTensorType type = typeOf(r, vi.layout);
      if (src->getType() == type) {
        mapped[r] = *src;
        continue;
      }
      Value copy = AllocOp::create(b, op->getLoc(), type);
      ownAllocs.insert(copy.getDefiningOp());
      RedistributeOp::create(b, op->getLoc(), *src, copy, DenseI64ArrayAttr());
      mapped[r] = copy;
      continue;
    }
    auto planIt = plans.find(op);
    if (planIt != plans.end()) {
      FailureOr<Value> out = emitCompute(b, planIt->second, [&](Value v) {
        return materialize(b, v, op->getLoc());
      });
      if (failed(out))
        return failure();
      ownAllocs.insert(out->getDefiningOp());
      mapped[planIt->second.result] = *out;
    }
  }

  // The results: written into the destination arguments (the last
  // computation of one writes there directly).
  b.setInsertionPoint(ret);
  llvm::DenseMap<Value, Value> movedTo;
  for (auto [v, dest] : llvm::zip(ret.getOperands(), dests)) {
    const ValueInfo &vi = info.lookup(v);
    if (vi.kind == ValueInfo::Kind::Constant) {
      mapped[v] = dest;
      FailureOr<std::string> lit = literal(vi.constant, ret.getLoc());
      if (failed(lit))
        return failure();
      SmallVector<std::string> idx;
      for (unsigned d = 0; d < cast<DistTensorType>(dest.getType()).getRank();
           ++d)
        idx.push_back(indexName(d).str());
      if (failed(emitOwnerComputes(b, ret.getLoc(),
                                   "Y(" + llvm::join(idx, ",") + ") = " + *lit,
                                   "Y", dest, idx, {})))
        return failure();
      continue;
    }
    FailureOr<Value> src = materialize(b, v, ret.getLoc());
    if (failed(src))
      return failure();
    Value s = movedTo.lookup(*src) ? movedTo.lookup(*src) : *src;
    Operation *def = s.getDefiningOp();
    if (def && ownAllocs.contains(def) && s.getType() == dest.getType()) {
      s.replaceAllUsesWith(dest);
      def->erase();
      ownAllocs.erase(def);
      movedTo[*src] = dest;
      continue;
    }
    RedistributeOp::create(b, ret.getLoc(), s, dest, DenseI64ArrayAttr());
  }
  func::ReturnOp::create(b, ret.getLoc());

  // The input's operations go; scalar ones no longer used go too.
  for (Operation *op : llvm::reverse(old)) {
    if (!hasTensors(op) && !isShardOp(op) && !isa<func::ReturnOp>(op) &&
        !(isa<arith::ConstantOp>(op) && op->use_empty()))
      continue;
    op->dropAllUses();
    op->erase();
  }
  func.setType(FunctionType::get(ctx, entry.getArgumentTypes(), {}));
  return success();
}

struct ImportShardPass : dist::impl::DistImportShardBase<ImportShardPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<SmallVector<int64_t>> grids;
    bool ok = true;
    for (auto g : module.getOps<shard::GridOp>()) {
      ArrayRef<int64_t> shape = g.getShape();
      if (llvm::any_of(shape, ShapedType::isDynamic)) {
        g.emitError("dist-import-shard: grid @")
            << g.getSymName()
            << " has a dynamic extent; dist grids have static extents";
        ok = false;
        continue;
      }
      if (llvm::any_of(shape, [](int64_t e) { return e < 1; })) {
        g.emitError("dist-import-shard: grid @")
            << g.getSymName()
            << " has an extent below 1; dist grids have at least one "
               "process per axis";
        ok = false;
        continue;
      }
      if (shape.empty() || shape.size() > 8) {
        g.emitError("dist-import-shard: grid @")
            << g.getSymName() << " has " << shape.size()
            << " axes; dist grids have 1 to 8";
        ok = false;
        continue;
      }
      std::optional<int64_t> procs = 1;
      for (int64_t e : shape)
        procs = procs ? mulWithin(*procs, e, kMaxProcessors) : procs;
      if (!procs) {
        g.emitError("dist-import-shard: grid @")
            << g.getSymName() << " has more than " << kMaxProcessors
            << " processes (dist grids have at most 2^20)";
        ok = false;
        continue;
      }
      grids[g.getSymName()] = SmallVector<int64_t>(shape);
    }
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>()) {
      bool annotated = false;
      f.walk([&](Operation *op) {
        annotated |= isShardOp(op);
        return annotated ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (annotated)
        funcs.push_back(f);
    }
    std::vector<std::unique_ptr<FunctionImporter>> importers;
    for (func::FuncOp f : funcs) {
      importers.push_back(std::make_unique<FunctionImporter>(f, grids));
      ok &= succeeded(importers.back()->check());
    }
    if (!ok)
      return signalPassFailure();
    for (auto &imp : importers)
      if (failed(imp->emit()))
        return signalPassFailure();
    for (auto g : llvm::make_early_inc_range(module.getOps<shard::GridOp>())) {
      OpBuilder b(g);
      auto level =
          GridLevelAttr::get(&getContext(), g.getShape(), ProcessorKind::cpu);
      GridOp::create(b, g.getLoc(), g.getSymNameAttr(),
                     b.getArrayAttr({level}));
      g.erase();
    }
  }
};
} // namespace
