//===- ImportShardCompute.cpp - tensor ops to dist.compute ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The half of dist-import-shard that turns one tensor operation (a linalg
// op, an element-wise arith op on tensors) into a statement of tensor index
// notation, and emits it as a dist.compute with a default schedule: the
// one-sided matrix product for a float matmul, owner-computes over the
// output's layout for everything else.
//
//===----------------------------------------------------------------------===//

#include "ImportShard.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::shard_import;

StringRef shard_import::indexName(unsigned d) {
  static const char *const names[] = {"i", "j", "k", "l", "m", "n",
                                      "p", "q", "r", "s", "t", "u"};
  return d < std::size(names) ? names[d] : "";
}

namespace {
/// Names of the inputs of a statement: A, B, D, ... (C and Y, Z are the
/// product's output and a generic's output and initial value).
std::string inputName(unsigned n) {
  static const char names[] = "ABDEFGHPQRSTUVWX";
  if (n < sizeof(names) - 1)
    return std::string(1, names[n]);
  return "";
}

bool isSupportedElement(Type t) {
  return t.isF32() || t.isF64() || t.isInteger(32) || t.isInteger(64);
}

std::string accessText(StringRef name, ArrayRef<std::string> indices) {
  std::string s = name.str() + "(";
  s += llvm::join(indices, ",");
  return s + ")";
}

/// Turns the scalar computation of a linalg op's body (or of an element-wise
/// op) into the right-hand side of a statement.
class ExpressionBuilder {
public:
  /// `leaf` gives the text of a block argument (an access or a literal) or
  /// fails after reporting why.
  ExpressionBuilder(Operation *owner,
                    function_ref<FailureOr<std::string>(BlockArgument)> leaf)
      : owner(owner), leaf(leaf) {}

  FailureOr<std::string> build(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return leaf(arg);
    Operation *def = v.getDefiningOp();
    if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      auto typed = dyn_cast<TypedAttr>(c.getValue());
      if (!typed || isa<ShapedType>(typed.getType()))
        return fail(def, "a constant that is not a scalar");
      return FunctionImport::literal(typed, def->getLoc());
    }
    if (!owner->isAncestor(def))
      return fail(def, "a value computed outside the operation");
    const char *op = nullptr;
    if (isa<arith::AddFOp, arith::AddIOp>(def))
      op = " + ";
    else if (isa<arith::SubFOp, arith::SubIOp>(def))
      op = " - ";
    else if (isa<arith::MulFOp, arith::MulIOp>(def))
      op = " * ";
    if (op) {
      FailureOr<std::string> lhs = build(def->getOperand(0));
      if (failed(lhs))
        return failure();
      FailureOr<std::string> rhs = build(def->getOperand(1));
      if (failed(rhs))
        return failure();
      return "(" + *lhs + op + *rhs + ")";
    }
    if (isa<arith::NegFOp>(def)) {
      FailureOr<std::string> x = build(def->getOperand(0));
      if (failed(x))
        return failure();
      return "(-" + *x + ")";
    }
    return fail(def, ("'" + def->getName().getStringRef() + "'").str());
  }

private:
  FailureOr<std::string> fail(Operation *at, const std::string &what) {
    InFlightDiagnostic d = at->emitError()
                           << "dist-import-shard: " << what << " in '"
                           << owner->getName()
                           << "' has no counterpart in dist's index "
                              "notation (operands, +, -, *, negation and "
                              "scalar constants)";
    d.attachNote(owner->getLoc()) << "in this operation";
    return failure();
  }

  Operation *owner;
  function_ref<FailureOr<std::string>(BlockArgument)> leaf;
};

/// Whether `v` is `out + X` or `X + out` with `out` the body's output
/// argument; sets `rest` to X.
bool isAccumulation(Value v, BlockArgument out, Value &rest) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<arith::AddFOp, arith::AddIOp>(def))
    return false;
  if (def->getOperand(0) == out) {
    rest = def->getOperand(1);
    return true;
  }
  if (def->getOperand(1) == out) {
    rest = def->getOperand(0);
    return true;
  }
  return false;
}

/// Whether `v` is a product of block arguments and constants only.
bool isProduct(Value v, SmallVectorImpl<BlockArgument> &factors) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    factors.push_back(arg);
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (isa<arith::ConstantOp>(def))
    return true;
  if (!isa<arith::MulFOp, arith::MulIOp>(def))
    return false;
  return isProduct(def->getOperand(0), factors) &&
         isProduct(def->getOperand(1), factors);
}
} // namespace

FailureOr<std::string> FunctionImport::literal(TypedAttr c, Location loc) {
  if (auto f = dyn_cast<FloatAttr>(c)) {
    double x = f.getValueAsDouble();
    if (!std::isfinite(x))
      return emitError(loc) << "dist-import-shard: the constant " << x
                            << " is not finite; dist's statements take "
                               "finite constants only";
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::format("%.17g", std::fabs(x));
    if (x == 0)
      s = "0";
    return std::signbit(x) && x != 0 ? "(-" + s + ")" : s;
  }
  if (auto i = dyn_cast<IntegerAttr>(c)) {
    int64_t x = i.getValue().getSExtValue();
    std::string s = std::to_string(x < 0 ? -(uint64_t)x : (uint64_t)x);
    return x < 0 ? "(-" + s + ")" : s;
  }
  return emitError(loc) << "dist-import-shard: unsupported constant " << c;
}

namespace {
/// Builds the plan of one operation: the statement's text, its bindings.
class Planner {
public:
  Planner(const FunctionImport &fi, Operation *op, RankedTensorType type)
      : fi(fi), op(op), resultType(type) {
    plan.op = op;
    plan.result = op->getResult(0);
    plan.outName = "Y";
  }

  /// Element-wise arith on tensors: one index per dimension.
  FailureOr<ComputePlan> arith();
  /// A linalg op with projected-permutation maps and a +, -, * body.
  FailureOr<ComputePlan> linalgOp();

private:
  InFlightDiagnostic error() {
    return op->emitError("dist-import-shard: '") << op->getName() << "'";
  }
  FailureOr<std::string> inputText(Value v, ArrayRef<std::string> indices);
  FailureOr<std::string> leaf(BlockArgument arg);
  SmallVector<std::string> indicesOf(AffineMap map) const;
  FailureOr<ComputePlan> reduction(ArrayRef<unsigned> reductions,
                                   Value yielded);

  const FunctionImport &fi;
  Operation *op;
  RankedTensorType resultType;
  ComputePlan plan;
  unsigned nextInput = 0;
  linalg::LinalgOp lop;
  OpOperand *init = nullptr;
  BlockArgument outArg;
};

/// The text of input value `v` under the index variables `indices`.
FailureOr<std::string> Planner::inputText(Value v,
                                          ArrayRef<std::string> indices) {
  const ValueInfo &vi = fi.info.lookup(v);
  if (vi.kind == ValueInfo::Kind::Constant)
    return FunctionImport::literal(vi.constant, op->getLoc());
  if (vi.kind == ValueInfo::Kind::Empty)
    return error() << " reads a tensor.empty, whose elements are undefined";
  for (const Binding &b : plan.inputs)
    if (b.tensor == v)
      return accessText(b.name, indices);
  std::string name = inputName(nextInput++);
  if (name.empty())
    return error() << " reads too many tensors";
  plan.inputs.push_back({name, v});
  return accessText(name, indices);
}

FailureOr<ComputePlan> Planner::arith() {
  SmallVector<std::string> idx;
  for (unsigned d = 0; d < resultType.getRank(); ++d)
    idx.push_back(indexName(d).str());
  plan.outIndices = idx;
  for (Value operand : op->getOperands())
    if (operand.getType() != resultType)
      return error() << " mixes tensor types";
  SmallVector<std::string> leaves;
  for (Value operand : op->getOperands()) {
    FailureOr<std::string> t = inputText(operand, idx);
    if (failed(t))
      return failure();
    leaves.push_back(*t);
  }
  std::string rhs;
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    rhs = leaves[0] + " + " + leaves[1];
  else if (isa<arith::SubFOp, arith::SubIOp>(op))
    rhs = leaves[0] + " - " + leaves[1];
  else if (isa<arith::MulFOp, arith::MulIOp>(op))
    rhs = leaves[0] + " * " + leaves[1];
  else if (isa<arith::NegFOp>(op))
    rhs = "-" + leaves[0];
  else
    return error() << " on tensors is not imported (addf, subf, mulf, negf, "
                      "addi, subi, muli are)";
  plan.statement = accessText("Y", idx) + " = " + rhs;
  return plan;
}

SmallVector<std::string> Planner::indicesOf(AffineMap map) const {
  SmallVector<std::string> idx;
  for (AffineExpr e : map.getResults())
    idx.push_back(indexName(cast<AffineDimExpr>(e).getPosition()).str());
  return idx;
}

/// A block argument: an input's access (or literal), or the output's
/// initial value Z (or its constant).
FailureOr<std::string> Planner::leaf(BlockArgument arg) {
  if (arg == outArg) {
    Value iv = init->get();
    const ValueInfo &vi = fi.info.lookup(iv);
    if (vi.kind == ValueInfo::Kind::Constant)
      return FunctionImport::literal(vi.constant, op->getLoc());
    if (vi.kind == ValueInfo::Kind::Empty)
      return error() << " reads its output's initial value, a tensor.empty, "
                        "whose elements are undefined";
    if (llvm::none_of(plan.inputs,
                      [](const Binding &b) { return b.name == "Z"; }))
      plan.inputs.push_back({"Z", iv});
    return accessText("Z", plan.outIndices);
  }
  OpOperand *operand = lop.getMatchingOpOperand(arg);
  Value v = operand->get();
  if (!isa<RankedTensorType>(v.getType())) {
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      if (auto typed = dyn_cast<TypedAttr>(c.getValue()))
        return FunctionImport::literal(typed, c.getLoc());
    return error() << ": a scalar input that is not a constant is not "
                      "imported";
  }
  if (cast<RankedTensorType>(v.getType()).getElementType() !=
      resultType.getElementType())
    return error() << " mixes element types";
  return inputText(v, indicesOf(lop.getMatchingIndexingMap(operand)));
}

FailureOr<ComputePlan> Planner::linalgOp() {
  lop = cast<linalg::LinalgOp>(op);
  if (!lop.hasPureTensorSemantics() || lop.getNumDpsInits() != 1)
    return error() << " is imported only on tensors with one output";
  if (lop.getNumLoops() > 12)
    return error() << " has more than 12 loops";
  for (auto [n, map] : llvm::enumerate(lop.getIndexingMapsArray()))
    if (!map.isProjectedPermutation())
      return error() << ": indexing map #" << n << " ("
                     << AffineMapAttr::get(map)
                     << ") is not a projected permutation; dist's accesses "
                        "name one loop index per dimension";
  init = lop.getDpsInitOperand(0);
  AffineMap outMap = lop.getMatchingIndexingMap(init);
  plan.outIndices = indicesOf(outMap);
  SmallVector<unsigned> reductions;
  for (auto [d, it] : llvm::enumerate(lop.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      reductions.push_back(d);
  for (unsigned d : reductions)
    if (outMap.isFunctionOfDim(d))
      return error() << ": the output is indexed by the reduction dimension d"
                     << d;
  outArg = lop.getRegionOutputArgs()[0];
  Value yielded = lop.getBlock()->getTerminator()->getOperand(0);
  if (!reductions.empty())
    return reduction(reductions, yielded);
  auto leafOf = [&](BlockArgument a) { return leaf(a); };
  ExpressionBuilder builder(op, leafOf);
  FailureOr<std::string> rhs = builder.build(yielded);
  if (failed(rhs))
    return failure();
  plan.statement = accessText("Y", plan.outIndices) + " = " + *rhs;
  return plan;
}

/// A reduction: the body must be `out + product`, the product using every
/// reduction dimension (dist sums a product over all its variables; a sum
/// would be summed term by term).
FailureOr<ComputePlan> Planner::reduction(ArrayRef<unsigned> reductions,
                                          Value yielded) {
  Value product;
  SmallVector<BlockArgument> factors;
  if (!isAccumulation(yielded, outArg, product) ||
      !isProduct(product, factors) || llvm::is_contained(factors, outArg))
    return error() << " reduces with a body other than 'output + product of "
                      "inputs', which dist's summation does not express";
  for (unsigned d : reductions) {
    bool used = llvm::any_of(factors, [&](BlockArgument a) {
      OpOperand *o = lop.getMatchingOpOperand(a);
      return lop.getMatchingIndexingMap(o).isFunctionOfDim(d);
    });
    if (!used)
      return error() << ": the reduction dimension d" << d
                     << " indexes none of the product's inputs";
  }
  auto leafOf = [&](BlockArgument a) { return leaf(a); };
  ExpressionBuilder builder(op, leafOf);
  FailureOr<std::string> prod = builder.build(product);
  if (failed(prod))
    return failure();

  // The matrix product C(i,j) (+)= A(i,k) * B(k,j) in float: one-sided.
  MLIRContext *ctx = op->getContext();
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  SmallVector<AffineMap> maps = lop.getIndexingMapsArray();
  bool matmulMaps = lop.getNumLoops() == 3 && factors.size() == 2 &&
                    plan.inputs.size() == 2 && maps.size() == 3 &&
                    maps[0] == AffineMap::get(3, 0, {d0, d2}, ctx) &&
                    maps[1] == AffineMap::get(3, 0, {d2, d1}, ctx) &&
                    maps[2] == AffineMap::get(3, 0, {d0, d1}, ctx) &&
                    factors[0] == lop.getRegionInputArgs()[0] &&
                    factors[1] == lop.getRegionInputArgs()[1];
  const ValueInfo &vi = fi.info.lookup(init->get());
  if (matmulMaps && isa<FloatType>(resultType.getElementType())) {
    plan.oneSided = true;
    plan.outName = "C";
    plan.inputs[0].name = "A";
    plan.inputs[1].name = "B";
    bool zero = vi.kind == ValueInfo::Kind::Empty ||
                (vi.kind == ValueInfo::Kind::Constant &&
                 cast<FloatAttr>(vi.constant).getValue().isZero());
    plan.accumulateOnto = zero ? Value() : init->get();
    plan.statement =
        std::string("C(i,j) ") + (zero ? "=" : "+=") + " A(i,k) * B(k,j)";
    return plan;
  }
  std::string lhs = accessText("Y", plan.outIndices) + " = ";
  if (vi.kind == ValueInfo::Kind::Empty) {
    plan.statement = lhs + *prod;
    return plan;
  }
  FailureOr<std::string> start = leaf(outArg);
  if (failed(start))
    return failure();
  plan.statement = *start == "0" ? lhs + *prod : lhs + *start + " + " + *prod;
  return plan;
}
} // namespace

FailureOr<ComputePlan> FunctionImport::planCompute(Operation *op) const {
  if (op->getNumResults() != 1)
    return op->emitError("dist-import-shard: '")
           << op->getName() << "' with " << op->getNumResults()
           << " results is not imported (one tensor result expected)";
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !isSupportedElement(resultType.getElementType()))
    return op->emitError("dist-import-shard: '")
           << op->getName() << "' has result type "
           << op->getResult(0).getType()
           << "; dist tensors hold f32, f64, i32 or i64";
  Planner planner(*this, op, resultType);
  if (isa_and_nonnull<arith::ArithDialect>(op->getDialect()))
    return planner.arith();
  if (isa<linalg::LinalgOp>(op))
    return planner.linalgOp();
  return op->emitError("dist-import-shard: '")
         << op->getName() << "' is not imported";
}

LogicalResult FunctionImport::emitOwnerComputes(
    OpBuilder &b, Location loc, StringRef statement, StringRef outName,
    Value out, ArrayRef<std::string> outIndices,
    ArrayRef<std::pair<std::string, Value>> inputs) {
  MLIRContext *ctx = b.getContext();
  auto outType = cast<DistTensorType>(out.getType());
  LayoutAttr layout = outType.getLayout();
  ArrayRef<int64_t> grid = grids.find(layout.getGrid().getValue())->second;
  unsigned rank = outType.getRank();

  // The layout computed in: the output's, each grid axis the output is
  // replicated on added (slowest) to the dimension with the largest blocks.
  SmallVector<SmallVector<int64_t>> axes(rank);
  SmallVector<bool> used(grid.size(), false);
  for (auto [d, dim] : llvm::enumerate(layout.getOuter().getDims())) {
    axes[d].assign(dim.getAxes().begin(), dim.getAxes().end());
    for (int64_t a : dim.getAxes())
      used[a] = true;
  }
  auto parts = [&](unsigned d) {
    int64_t q = 1;
    for (int64_t a : axes[d])
      q *= grid[a];
    return q;
  };
  for (unsigned g = 0; g < grid.size(); ++g) {
    if (used[g] || grid[g] == 1)
      continue;
    if (rank == 0)
      return emitError(loc) << "dist-import-shard: a scalar result on a "
                               "grid of several processes is not imported";
    unsigned best = 0;
    int64_t bestBlock = -1;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t q = parts(d);
      int64_t block = (outType.getShape()[d] + q - 1) / q;
      if (block > bestBlock) {
        best = d;
        bestBlock = block;
      }
    }
    axes[best].push_back(g);
  }
  SmallVector<DimDistAttr> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(
        axes[d].empty()
            ? DimDistAttr::get(ctx, {}, PartitionKind::none, 0)
            : DimDistAttr::get(ctx, axes[d], PartitionKind::blocked, 0));
  auto computeLayout = LayoutAttr::get(
      ctx, layout.getGrid(), {LevelLayoutAttr::get(ctx, dims, {}, {})});
  Value target = out;
  if (computeLayout != layout)
    target = AllocOp::create(b, loc,
                             DistTensorType::get(ctx, outType.getShape(),
                                                 outType.getElementType(),
                                                 computeLayout));

  // The schedule: every grid axis gets the loop of the output dimension
  // it deals out (several axes: one divide into all parts, then peeled
  // off slowest first), distributed in grid-axis order; an axis of extent
  // 1 that the layout does not use gets a loop of one iteration. On one
  // process: no schedule.
  int64_t processes = 1;
  for (int64_t e : grid)
    processes *= e;
  ScheduleAttr sched;
  if (processes > 1) {
    SmallVector<std::string> commands, axisLoop(grid.size()), local;
    for (unsigned d = 0; d < rank; ++d) {
      const std::string &x = outIndices[d];
      size_t m = axes[d].size();
      local.push_back(m ? x + "l" : x);
      if (m == 0)
        continue;
      std::string cur = m == 1 ? x + "g" + std::to_string(axes[d][0]) : x + "q";
      commands.push_back("divide(" + x + ", " + cur + ", " + x + "l, " +
                         std::to_string(parts(d)) + ")");
      for (size_t t = m - 1; t >= 1; --t) {
        int64_t a = axes[d][t];
        std::string loop = x + "g" + std::to_string(a);
        std::string rest = x + "r" + std::to_string(t);
        commands.push_back("divide(" + cur + ", " + loop + ", " + rest + ", " +
                           std::to_string(grid[a]) + ")");
        axisLoop[a] = loop;
        cur = rest;
      }
      axisLoop[axes[d][0]] = cur;
    }
    for (unsigned g = 0; g < grid.size(); ++g) {
      if (!axisLoop[g].empty())
        continue;
      std::string loop = outIndices[0] + "u" + std::to_string(g);
      std::string rest = outIndices[0] + "w" + std::to_string(g);
      commands.push_back("divide(" + local[0] + ", " + loop + ", " + rest +
                         ", 1)");
      axisLoop[g] = loop;
      local[0] = rest;
    }
    SmallVector<std::string> order = axisLoop;
    llvm::append_range(order, local);
    commands.push_back("reorder({" + llvm::join(order, ", ") + "})");
    commands.push_back("distribute({" + llvm::join(axisLoop, ", ") + "})");
    std::string text = "#dist.schedule<[" + llvm::join(commands, ", ") + "]>";
    sched = dyn_cast_or_null<ScheduleAttr>(parseAttribute(text, ctx));
    if (!sched)
      return emitError(loc) << "dist-import-shard: internal error: schedule "
                            << text << " does not parse";
  }

  SmallVector<Attribute> names{b.getStringAttr(outName)};
  SmallVector<Value> tensors{target};
  for (const auto &[name, v] : inputs) {
    names.push_back(b.getStringAttr(name));
    tensors.push_back(v);
  }
  auto stmt = StatementAttr::getChecked(
      [&] { return emitError(loc) << "dist-import-shard: "; }, ctx, statement);
  if (!stmt)
    return failure();
  ComputeOp::create(b, loc, stmt, b.getArrayAttr(names), tensors, sched);
  if (target != out)
    RedistributeOp::create(b, loc, target, out, DenseI64ArrayAttr());
  return success();
}

FailureOr<Value>
FunctionImport::emitCompute(OpBuilder &b, const ComputePlan &plan,
                            function_ref<FailureOr<Value>(Value)> materialize) {
  Location loc = plan.op->getLoc();
  MLIRContext *ctx = b.getContext();
  Value out = AllocOp::create(
      b, loc, typeOf(plan.result, info.lookup(plan.result).layout));
  SmallVector<std::pair<std::string, Value>> inputs;
  for (const Binding &bind : plan.inputs) {
    FailureOr<Value> v = materialize(bind.tensor);
    if (failed(v))
      return failure();
    inputs.push_back({bind.name, *v});
  }
  if (!plan.oneSided) {
    if (failed(emitOwnerComputes(b, loc, plan.statement, plan.outName, out,
                                 plan.outIndices, inputs)))
      return failure();
    return out;
  }
  if (plan.accumulateOnto) {
    FailureOr<Value> start = materialize(plan.accumulateOnto);
    if (failed(start))
      return failure();
    RedistributeOp::create(b, loc, *start, out, DenseI64ArrayAttr());
  }
  auto stmt = StatementAttr::getChecked(
      [&] { return emitError(loc) << "dist-import-shard: "; }, ctx,
      plan.statement);
  auto sched = dyn_cast_or_null<ScheduleAttr>(
      parseAttribute("#dist.schedule<[stationary(auto), prefetch(2)]>", ctx));
  if (!stmt || !sched)
    return failure();
  SmallVector<Attribute> names{b.getStringAttr("C")};
  SmallVector<Value> tensors{out};
  for (const auto &[name, v] : inputs) {
    names.push_back(b.getStringAttr(name));
    tensors.push_back(v);
  }
  ComputeOp::create(b, loc, stmt, b.getArrayAttr(names), tensors, sched);
  return out;
}
