//===- ComputeModel.cpp - a dist.compute prepared for lowering -----------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// buildComputeModel: the statement, tensors, grid and applied schedule of a
// dist.compute, with the checks that make it lowerable (one one-level grid,
// distributed loops outermost and matching the grid, parallel loops that
// enclose no communication).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// ComputeModel
//===----------------------------------------------------------------------===//

SmallVector<std::string> ComputeModel::fixedAt(unsigned k) const {
  SmallVector<std::string> s;
  for (const Loop *l : distLoops)
    s.push_back(l->name);
  for (unsigned i = 0; i < k && i < localLoops.size(); ++i)
    s.push_back(localLoops[i]->name);
  return s;
}

int64_t ComputeModel::stepsAt(unsigned k) const {
  std::optional<int64_t> n = 1;
  for (unsigned i = 0; i < k && i < localLoops.size() && n; ++i)
    n = mulWithin(*n, localLoops[i]->extent, int64_t(1) << 62);
  return n ? *n : std::numeric_limits<int64_t>::max();
}

FailureOr<std::unique_ptr<ComputeModel>>
mlir::dist::buildComputeModel(ComputeOp op) {
  auto m = std::make_unique<ComputeModel>();
  m->op = op;
  // The statement the op parsed when it was read; the model keeps a copy of
  // its own (the lowering binds it as a mutable reference).
  StatementAttr statement = op.getStatementAttr();
  if (!statement.isValid())
    return statement.emitParseError([&]() { return op.emitOpError(); });
  if (op.getAutoSchedule())
    return op.emitOpError("has 'schedule auto' and no schedule yet: run "
                          "dist-auto-schedule first (dist-to-llvm runs it; "
                          "docs/autoschedule.md)");
  if (isSparseCompute(op))
    return op.emitOpError("has a sparse operand: its communication is the "
                          "sparse matrix's exchange plan, built at run time, "
                          "not a transfer of boxes (docs/sparse.md)");
  if (isOneSidedCompute(op))
    return op.emitOpError("is scheduled one-sided: its slices move with "
                          "one-sided gets and accumulates that the runtime "
                          "derives from the layouts, not as transfers of "
                          "boxes (docs/onesided.md)");
  m->stmt = statement.getStatement().clone();
  IndexStatement &stmt = m->stmt;
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors())) {
    StringRef name = cast<StringAttr>(n).getValue();
    auto type = dyn_cast<DistTensorType>(v.getType());
    if (!type)
      return op.emitOpError("operand '") << name
                                         << "' is not a distributed tensor";
    m->types[name] = type;
    m->values[name] = v;
  }
  m->names = stmt.tensorNames();
  SmallVector<const Access *> all{&stmt.lhs};
  llvm::append_range(all, stmt.rhsAccesses());
  for (const Access *a : all) {
    auto [it, inserted] = m->accessOf.try_emplace(a->tensor, a);
    if (!inserted && it->second->indices != a->indices)
      return op.emitOpError("cannot be lowered: tensor '")
             << a->tensor
             << "' is accessed with different index variables in one "
                "statement";
  }

  // One one-level grid for every tensor.
  DistTensorType outType = m->types[stmt.lhs.tensor];
  m->grid = outType.getLayout().getGrid();
  for (const std::string &t : m->names) {
    DistTensorType type = m->types[t];
    if (type.getLayout().getGrid() != m->grid)
      return op.emitOpError("cannot be lowered: tensor '")
             << t << "' lives on " << type.getLayout().getGrid() << " but '"
             << stmt.lhs.tensor << "' on " << m->grid
             << "; redistribute it onto one machine first";
    if (type.getLayout().getLevels().size() != 1)
      return op.emitOpError("cannot be lowered: tensor '")
             << t
             << "' has a hierarchical layout; only one-level layouts "
                "are lowered (dist-flatten-machines flattens machines "
                "of nodes; dist-to-llvm runs it)";
  }
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(op, m->grid);
  if (!grid)
    return op.emitOpError("'") << m->grid << "' is not a dist.grid";
  if (grid.getNumLevels() != 1)
    return op.emitOpError("cannot be lowered: machine ")
           << m->grid
           << " is hierarchical; only one-level machines are "
              "lowered (dist-flatten-machines flattens machines "
              "of nodes; dist-to-llvm runs it)";
  m->gridShape.assign(grid.getShape().begin(), grid.getShape().end());

  // The extents and loop nest every reader of the op shares.
  FailureOr<ComputeLoopNest> nest = op.getLoopNest();
  if (failed(nest))
    return failure();
  m->extents = std::move(nest->extents);
  m->nest = std::move(nest->nest);

  std::string gridName = "@" + m->grid.getValue().str();
  if (std::optional<std::string> err =
          distributionError(m->nest, m->gridShape, gridName))
    return op.emitOpError("schedule cannot be lowered: ") << *err;
  for (const Loop &l : m->nest.loops)
    (l.distributed ? m->distLoops : m->localLoops).push_back(&l);
  for (auto [i, l] : llvm::enumerate(m->distLoops))
    m->gridDimOf.push_back(l->gridDim >= 0 ? l->gridDim : (int64_t)i);

  for (const std::string &t : m->names) {
    m->level[t] = 0;
    auto it = m->nest.communicateAt.find(t);
    if (it == m->nest.communicateAt.end())
      continue;
    for (auto [k, l] : llvm::enumerate(m->localLoops))
      if (l->name == it->second)
        m->level[t] = k + 1;
  }
  m->gemmLeaf = !m->nest.kernel.empty();
  m->leafLevel = m->localLoops.size();
  if (m->gemmLeaf)
    m->leafLevel = m->localLoops.size() - m->nest.substituteVars.size();

  // Parallel loops run their iterations in threads: nothing may be
  // communicated inside them, they may not enclose a GEMM leaf, and their
  // iterations must write different output elements.
  for (auto [i, l] : llvm::enumerate(m->localLoops)) {
    if (!l->parallel)
      continue;
    for (const std::string &t : m->names)
      if (m->level[t] > i)
        return op.emitOpError("schedule cannot be lowered: parallelize(")
               << l->name << "): tensor '" << t
               << "' is communicated inside it; parallelize a loop inside "
                  "every communicate point";
    if (m->gemmLeaf && i < m->leafLevel)
      return op.emitOpError("schedule cannot be lowered: parallelize(")
             << l->name << ") encloses the " << m->nest.kernel
             << " leaf; parallelize a loop of a scalar leaf";
    for (const std::string &o : m->nest.originsOf(l->name))
      if (!llvm::is_contained(stmt.lhs.indices, o))
        return op.emitOpError("schedule cannot be lowered: parallelize(")
               << l->name << "): '" << o
               << "' is summed over, so parallel iterations would add into "
                  "the same output elements";
  }
  return m;
}
