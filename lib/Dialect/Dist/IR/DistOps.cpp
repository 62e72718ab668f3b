//===- DistOps.cpp - dist dialect operations --------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// GridOp
//===----------------------------------------------------------------------===//

GridLevelAttr GridOp::getLevel(unsigned i) {
  return cast<GridLevelAttr>(getLevels()[i]);
}

int64_t GridOp::getNumProcessors() {
  int64_t n = 1;
  for (int64_t e : getShape())
    n *= e;
  return n;
}

// dist.grid @name kind? [d0, d1, ...] (, kind? [e0, ...])* attr-dict
ParseResult GridOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  SmallVector<Attribute> levels;
  MLIRContext *ctx = parser.getContext();
  do {
    SMLoc loc = parser.getCurrentLocation();
    ProcessorKind kind = ProcessorKind::cpu;
    StringRef kw;
    if (succeeded(parser.parseOptionalKeyword(&kw))) {
      std::optional<ProcessorKind> k = symbolizeProcessorKind(kw);
      if (!k)
        return parser.emitError(loc)
               << "unknown processor kind '" << kw
               << "'; expected cpu, gpu or node";
      kind = *k;
    }
    SmallVector<int64_t> shape;
    SMLoc shapeLoc = parser.getCurrentLocation();
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square,
            [&]() { return parser.parseInteger(shape.emplace_back()); },
            " in a grid shape"))
      return failure();
    auto level = GridLevelAttr::getChecked(
        [&]() { return parser.emitError(shapeLoc); }, ctx,
        ArrayRef<int64_t>(shape), kind);
    if (!level)
      return failure();
    levels.push_back(level);
  } while (succeeded(parser.parseOptionalComma()));
  result.addAttribute(getLevelsAttrName(result.name),
                      ArrayAttr::get(ctx, levels));
  return parser.parseOptionalAttrDict(result.attributes);
}

void GridOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  bool flat = getNumLevels() == 1;
  p << ' ';
  llvm::interleaveComma(getLevels(), p, [&](Attribute a) {
    auto level = cast<GridLevelAttr>(a);
    if (!flat || level.getKind() != ProcessorKind::cpu)
      p << stringifyProcessorKind(level.getKind());
    p << "[";
    llvm::interleaveComma(level.getShape(), p);
    p << "]";
  });
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getSymNameAttrName(), getLevelsAttrName()});
}

LogicalResult GridOp::verify() {
  if (getLevels().empty())
    return emitOpError("needs at least one level");
  for (auto [i, a] : llvm::enumerate(getLevels())) {
    auto level = dyn_cast<GridLevelAttr>(a);
    if (!level)
      return emitOpError("level ") << i << " is not a #dist.level attribute";
    if (i + 1 < getNumLevels() && level.getKind() == ProcessorKind::gpu)
      return emitOpError("level ")
             << i << " is made of gpus but has a further level inside it; "
             << "only the innermost level may be gpu";
  }
  // The runtime flattens every level into one grid of at most kMaxDims
  // axes.
  int64_t axes = 0;
  for (Attribute a : getLevels())
    axes += cast<GridLevelAttr>(a).getShape().size();
  if (axes > kMaxDims)
    return emitOpError("has ")
           << axes << " grid axes (all levels together) but the runtime "
           << "supports at most " << kMaxDims
           << " (DISTRT_MAX_DIMS); merge axes, e.g. [2, 2] into [4]";
  std::optional<int64_t> total = 1;
  for (Attribute a : getLevels())
    for (int64_t e : cast<GridLevelAttr>(a).getShape())
      if (total)
        total = mulWithin(*total, e, kMaxProcessors);
  if (!total)
    return emitOpError("has more than ")
           << kMaxProcessors << " processors, the most dist supports";
  return success();
}

//===----------------------------------------------------------------------===//
// GridHandleOp
//===----------------------------------------------------------------------===//

LogicalResult
GridHandleOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto grid =
      symbolTable.lookupNearestSymbolFrom<GridOp>(*this, getGridAttr());
  if (!grid)
    return emitOpError("'") << getGridAttr()
                            << "' does not name a dist.grid in scope";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// Every distributed tensor type among `types` must name a grid in scope and
/// fit it.
static LogicalResult verifyTensorLayouts(Operation *op, TypeRange types,
                                         SymbolTableCollection &symbols) {
  for (Type t : types) {
    auto tensor = dyn_cast<DistTensorType>(t);
    if (!tensor)
      continue;
    LayoutAttr layout = tensor.getLayout();
    Operation *grid =
        symbols.lookupNearestSymbolFrom(op, layout.getGrid());
    if (failed(layout.verifyAgainstGrid(
            [&]() { return op->emitOpError() << "layout of " << t << ": "; },
            grid)))
      return failure();
  }
  return success();
}

/// The grid named by a communication op, with axes in range and distinct.
static LogicalResult verifyCommGrid(Operation *op, FlatSymbolRefAttr gridRef,
                                    ArrayRef<int64_t> axes,
                                    SymbolTableCollection &symbols,
                                    GridOp *gridOut = nullptr) {
  auto grid = symbols.lookupNearestSymbolFrom<GridOp>(op, gridRef);
  if (!grid)
    return op->emitOpError("'") << gridRef
                                << "' does not name a dist.grid in scope";
  int64_t rank = grid.getShape().size();
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axes) {
    if (a < 0 || a >= rank)
      return op->emitOpError("grid axis ")
             << a << " is out of range for " << gridRef << " of rank " << rank;
    if (!seen.insert(a).second)
      return op->emitOpError("grid axis ") << a << " is listed twice";
  }
  if (gridOut)
    *gridOut = grid;
  return success();
}

//===----------------------------------------------------------------------===//
// AllocOp / FillOp / LoadOp / StoreOp / RedistributeOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorLayouts(*this, getResult().getType(), symbols);
}

LogicalResult FillOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorLayouts(*this, getTensor().getType(), symbols);
}

LogicalResult LoadOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorLayouts(*this, getTensor().getType(), symbols);
}

LogicalResult StoreOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorLayouts(*this, getTensor().getType(), symbols);
}

/// Processes of every level of `grid` together (the ranks a program on it
/// runs with), or nothing beyond kMaxProcessors.
static std::optional<int64_t> totalProcesses(GridOp grid) {
  std::optional<int64_t> total = 1;
  for (Attribute a : grid.getLevels())
    for (int64_t e : cast<GridLevelAttr>(a).getShape())
      if (total)
        total = mulWithin(*total, e, kMaxProcessors);
  return total;
}

LogicalResult RedistributeOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(verifyTensorLayouts(
          *this, TypeRange{getSource().getType(), getDest().getType()},
          symbols)))
    return failure();
  // One program runs on one number of ranks: a redistribution between
  // grids of different sizes could never run (each grid's size is checked
  // against the rank count at run time). Grids of one size and different
  // shapes are fine.
  FlatSymbolRefAttr srcRef = getSource().getType().getLayout().getGrid();
  FlatSymbolRefAttr dstRef = getDest().getType().getLayout().getGrid();
  auto src = symbols.lookupNearestSymbolFrom<GridOp>(*this, srcRef);
  auto dst = symbols.lookupNearestSymbolFrom<GridOp>(*this, dstRef);
  if (!src || !dst || src == dst)
    return success();
  std::optional<int64_t> ns = totalProcesses(src), nd = totalProcesses(dst);
  if (ns && nd && *ns != *nd)
    return emitOpError("source is on grid ")
           << srcRef << " of " << *ns << " processes but the destination is "
           << "on grid " << dstRef << " of " << *nd
           << "; a program runs on one number of ranks, so both grids need "
              "the same number of processes (put the destination on a grid "
              "of "
           << *ns << " processes)";
  return success();
}

LogicalResult RedistributeOp::verify() {
  auto src = getSource().getType();
  auto dst = getDest().getType();
  if (std::optional<ArrayRef<int64_t>> sum = getSum()) {
    // A partial-sum temporary summed over distributed dimensions.
    if (sum->empty())
      return emitOpError("'sum' lists no dimensions");
    SmallVector<int64_t> kept;
    LevelLayoutAttr level = src.getLayout().getOuter();
    for (auto [i, d] : llvm::enumerate(*sum)) {
      if (d < 0 || d >= src.getRank())
        return emitOpError("summed dimension ")
               << d << " is out of range for a tensor of rank "
               << src.getRank();
      if (i > 0 && d <= (*sum)[i - 1])
        return emitOpError("summed dimensions must be listed in increasing "
                           "order without repeats");
      if (src.getLayout().getLevels().size() == 1 &&
          level.getDims()[d].getAxes().empty())
        return emitOpError("summed dimension ")
               << d
               << " is not distributed over any grid axis; a partial-sum "
                  "mode must be distributed";
    }
    for (int64_t d = 0; d < src.getRank(); ++d)
      if (!llvm::is_contained(*sum, d))
        kept.push_back(src.getShape()[d]);
    if (ArrayRef<int64_t>(kept) != dst.getShape())
      return emitOpError("destination must have the source's shape without "
                         "the summed dimensions");
  } else if (src.getShape() != dst.getShape()) {
    return emitOpError("source and destination must have the same shape");
  }
  if (src.getElementType() != dst.getElementType())
    return emitOpError(
        "source and destination must have the same element type");
  if (getSource() == getDest())
    return emitOpError("source and destination must be different tensors");
  return success();
}

//===----------------------------------------------------------------------===//
// ComputeOp
//===----------------------------------------------------------------------===//

// dist.compute "stmt" (A = %a, B = %b) (schedule [...])? attr-dict : types
ParseResult ComputeOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  // The statement is parsed here, once. A statement that does not parse is
  // an error of the op, at the op, in the verifier's words ("'dist.compute'
  // op invalid statement ..."), not a custom-op parse error.
  StringAttr text;
  if (parser.parseAttribute(text))
    return failure();
  Location loc = parser.getEncodedSourceLoc(parser.getNameLoc());
  StatementAttr statement = StatementAttr::getChecked(
      [&]() {
        return mlir::emitError(loc)
               << "'" << result.name.getStringRef() << "' op ";
      },
      ctx, text.getValue());
  if (!statement)
    return failure();
  result.addAttribute(getStatementAttrName(result.name), statement);
  SmallVector<Attribute> names;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            StringRef name;
            if (parser.parseKeyword(&name) || parser.parseEqual() ||
                parser.parseOperand(operands.emplace_back()))
              return failure();
            names.push_back(StringAttr::get(ctx, name));
            return success();
          }))
    return failure();
  result.addAttribute(getNamesAttrName(result.name),
                      ArrayAttr::get(ctx, names));
  if (succeeded(parser.parseOptionalKeyword("schedule"))) {
    if (succeeded(parser.parseOptionalKeyword("auto"))) {
      result.addAttribute(getAutoScheduleAttrName(result.name),
                          UnitAttr::get(ctx));
    } else {
      ScheduleAttr schedule = parseScheduleBody(parser);
      if (!schedule)
        return failure();
      result.addAttribute(getScheduleAttrName(result.name), schedule);
    }
  }
  SmallVector<Type> types;
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonTypeList(types) ||
      parser.resolveOperands(operands, types, typesLoc, result.operands))
    return failure();
  return success();
}

void ComputeOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printString(getStatement());
  p << " (";
  llvm::interleaveComma(llvm::zip(getNames(), getTensors()), p,
                        [&](auto pair) {
                          p << cast<StringAttr>(std::get<0>(pair)).getValue()
                            << " = " << std::get<1>(pair);
                        });
  p << ")";
  if (getScheduleAttr()) {
    p << " schedule ";
    printScheduleBody(p, getScheduleAttr());
  } else if (getAutoSchedule()) {
    p << " schedule auto";
  }
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getStatementAttrName(), getNamesAttrName(), getScheduleAttrName(),
       getAutoScheduleAttrName()});
  p << " : ";
  llvm::interleaveComma(getTensors().getTypes(), p);
}

Value ComputeOp::getTensorNamed(StringRef name) {
  for (auto [n, v] : llvm::zip(getNames(), getTensors()))
    if (cast<StringAttr>(n).getValue() == name)
      return v;
  return {};
}

void ComputeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Before verification the statement may be missing or not parsed: then
  // every tensor is read and written.
  auto attr = dyn_cast_or_null<StatementAttr>(getProperties().statement);
  bool parsed = attr && attr.isValid();
  for (auto [n, v] : llvm::zip(getNames(), getTensors())) {
    OpOperand *operand = nullptr;
    for (OpOperand &o : (*this)->getOpOperands())
      if (o.get() == v)
        operand = &o;
    bool isOut = !parsed || cast<StringAttr>(n).getValue() ==
                                attr.getStatement().lhs.tensor;
    if (!parsed || !isOut || attr.getStatement().accumulate)
      effects.emplace_back(MemoryEffects::Read::get(), operand,
                           SideEffects::DefaultResource::get());
    if (isOut)
      effects.emplace_back(MemoryEffects::Write::get(), operand,
                           SideEffects::DefaultResource::get());
  }
}

/// The names of `op` against its statement: each bound once, every tensor of
/// the statement bound and every bound name used, the output neither read
/// nor bound to an input's value, one element type. Fills `types`.
static LogicalResult verifyBindings(ComputeOp op, const IndexStatement &stmt,
                                    llvm::StringMap<DistTensorType> &types) {
  if (op.getNames().size() != op.getTensors().size())
    return op.emitOpError("binds ") << op.getNames().size() << " names to "
                                    << op.getTensors().size() << " tensors";
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors())) {
    StringRef name = cast<StringAttr>(n).getValue();
    if (!types.try_emplace(name, cast<DistTensorType>(v.getType())).second)
      return op.emitOpError("tensor name '") << name << "' is bound twice";
  }
  SmallVector<std::string> used = stmt.tensorNames();
  for (const std::string &name : used)
    if (!types.count(name))
      return op.emitOpError("tensor '")
             << name << "' of the statement is not bound to a value";
  for (auto &entry : types)
    if (!llvm::is_contained(used, entry.getKey().str()))
      return op.emitOpError("'")
             << entry.getKey() << "' is bound but not used in the statement";
  for (const Access *a : stmt.rhsAccesses())
    if (a->tensor == stmt.lhs.tensor)
      return op.emitOpError("the output '")
             << stmt.lhs.tensor
             << "' also appears on the right-hand side; write the result "
                "into a different tensor (or use '+=')";
  // The output may not be an input under another name: the computation
  // would overwrite data it still reads (inputs may share a value).
  Value output = op.getTensorNamed(stmt.lhs.tensor);
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors())) {
    StringRef name = cast<StringAttr>(n).getValue();
    if (name != stmt.lhs.tensor && v == output)
      return op.emitOpError("the output '")
             << stmt.lhs.tensor << "' and the input '" << name
             << "' are bound to the same tensor value, so the computation "
                "would overwrite data it still reads; copy the value into a "
                "separate tensor first (dist.alloc, then dist.redistribute "
                "or a dist.compute \"T(...) = "
             << name << "(...)\") and bind one of them to the copy";
  }

  // Element types agree.
  Type elementType = types[stmt.lhs.tensor].getElementType();
  for (auto &entry : types)
    if (entry.getValue().getElementType() != elementType)
      return op.emitOpError(
                 "all tensors of a statement have one element type; '")
             << entry.getKey() << "' has " << entry.getValue().getElementType()
             << " but '" << stmt.lhs.tensor << "' has " << elementType;
  return success();
}

/// The left-hand side, then every access of the right, left to right.
static SmallVector<const Access *> allAccesses(const IndexStatement &stmt) {
  SmallVector<const Access *> all{&stmt.lhs};
  llvm::append_range(all, stmt.rhsAccesses());
  return all;
}

/// Each index variable's extent, from the tensors it indexes (`types`, by
/// name): every access has its tensor's rank and uses a variable once, a
/// variable has one extent and is not also a tensor's name.
static LogicalResult
statementExtents(ComputeOp op, const IndexStatement &stmt,
                 const llvm::StringMap<DistTensorType> &types,
                 llvm::StringMap<int64_t> &extents) {
  llvm::StringMap<std::string> firstSeen;
  for (const Access *a : allAccesses(stmt)) {
    DistTensorType t = types.lookup(a->tensor);
    if ((int64_t)a->indices.size() != t.getRank())
      return op.emitOpError("access '")
             << a->tensor << "' has " << a->indices.size()
             << " index variable(s) but the tensor has rank " << t.getRank();
    llvm::StringSet<> inAccess;
    for (auto [d, idx] : llvm::enumerate(a->indices)) {
      if (!inAccess.insert(idx).second)
        return op.emitOpError("index variable '")
               << idx << "' is used twice in one access of '" << a->tensor
               << "'; diagonal accesses are not supported";
      int64_t extent = t.getShape()[d];
      std::string where =
          a->tensor + " (dimension " + std::to_string(d) + ")";
      auto [it, inserted] = extents.try_emplace(idx, extent);
      if (inserted) {
        firstSeen[idx] = where;
      } else if (ShapedType::isDynamic(it->second)) {
        // A dynamic extent (`?`) takes the other's; the runtime compares
        // the values given at call time.
        it->second = extent;
        firstSeen[idx] = where;
      } else if (!ShapedType::isDynamic(extent) && it->second != extent) {
        return op.emitOpError("index variable '")
               << idx << "' has extent " << it->second << " in "
               << firstSeen[idx] << " but " << extent << " in " << where;
      }
      if (types.count(idx))
        return op.emitOpError("'") << idx
                                   << "' is used both as a tensor and as an "
                                      "index variable";
    }
  }
  return success();
}

/// Dynamic extents (`?`) are given at call time: only the one-sided lowering
/// takes them (its schedule commands alone, no loop commands, which would
/// need the extents; OneSided.h checks the rest).
static LogicalResult
verifyDynamicExtents(ComputeOp op, const IndexStatement &stmt,
                     const llvm::StringMap<DistTensorType> &types,
                     ArrayRef<ScheduleCommand> commands) {
  using K = ScheduleCommand::Kind;
  for (const std::string &name : stmt.tensorNames()) {
    DistTensorType t = types.lookup(name);
    if (t.hasStaticShape())
      continue;
    bool oneSided = !commands.empty() &&
                    llvm::all_of(commands, [](const ScheduleCommand &c) {
                      return c.kind == K::Stationary || c.kind == K::Prefetch ||
                             c.kind == K::Offset;
                    });
    if (!oneSided)
      return op.emitOpError("tensor '")
             << name << "' has dynamic extents (" << t
             << "), which only one-sided products take: a schedule of "
                "stationary(T), prefetch and offset alone (dynamic extents "
                "are supported on exported function arguments used by "
                "one-sided products; docs/interop.md)";
  }
  return success();
}

FailureOr<ComputeLoopNest> ComputeOp::getLoopNest() {
  ComputeLoopNest result;
  result.statement = getStatementAttr();
  if (!result.statement.isValid())
    return result.statement.emitParseError([&]() { return emitOpError(); });
  const IndexStatement &stmt = result.statement.getStatement();

  // The tensor types of the statement's names.
  llvm::StringMap<DistTensorType> types;
  for (const std::string &name : stmt.tensorNames()) {
    Value v = getTensorNamed(name);
    if (!v)
      return emitOpError("tensor '")
             << name << "' of the statement is not bound to a value";
    auto type = dyn_cast<DistTensorType>(v.getType());
    if (!type)
      return emitOpError("tensor '")
             << name << "' is bound to a value of type " << v.getType()
             << ", not a distributed tensor";
    types[name] = type;
  }
  if (failed(statementExtents(*this, stmt, types, result.extents)))
    return failure();

  // The schedule, with the extents of the machines it names.
  ArrayRef<ScheduleCommand> commands;
  if (ScheduleAttr schedule = getScheduleAttr()) {
    if (!schedule.isValid())
      return emitOpError("malformed schedule: ") << schedule.getDecodeError();
    commands = schedule.getDecoded();
  }
  if (failed(verifyDynamicExtents(*this, stmt, types, commands)))
    return failure();
  llvm::StringMap<SmallVector<int64_t>> machines;
  for (const ScheduleCommand &c : commands) {
    if (c.machine.empty())
      continue;
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        *this, StringAttr::get(getContext(), c.machine));
    if (!grid)
      continue;
    // `@m` in a schedule: every level of the machine at once, flattened
    // outermost level first (one-level after dist-flatten-machines).
    SmallVector<int64_t> &shape = machines[c.machine];
    for (unsigned l = 0; l < grid.getNumLevels(); ++l)
      llvm::append_range(shape, grid.getLevel(l).getShape());
  }
  ScheduleError scheduleError;
  std::optional<LoopNest> nest =
      applySchedule(stmt, result.extents, commands, machines, scheduleError);
  if (!nest)
    return emitOpError("schedule: ") << scheduleError.message;
  result.nest = std::move(*nest);
  return result;
}

/// One-level machines, and machines of nodes over CPUs or GPUs (node[..],
/// ..., cpu[..] or gpu[..], which dist-flatten-machines flattens), lower.
static bool lowersAsOneLevel(GridOp grid) {
  unsigned n = grid.getNumLevels();
  if (n == 1)
    return true;
  for (unsigned l = 0; l + 1 < n; ++l)
    if (grid.getLevel(l).getKind() != ProcessorKind::node)
      return false;
  ProcessorKind inner = grid.getLevel(n - 1).getKind();
  return inner == ProcessorKind::cpu || inner == ProcessorKind::gpu;
}

/// `schedule auto`: dist-auto-schedule writes the schedule, so only what
/// no schedule changes is checked here.
static LogicalResult verifyAutoSchedule(ComputeOp op) {
  if (op.getScheduleAttr())
    return op.emitOpError("has both a schedule and 'schedule auto'; keep "
                          "one");
  if (llvm::any_of(op.getTensors().getTypes(), [](Type t) {
        return cast<DistTensorType>(t).isSparse();
      }))
    return op.emitOpError("schedule auto is for dense computations; a "
                          "sparse product takes one of the schedules in "
                          "docs/sparse.md");
  SymbolTableCollection symbols;
  return verifyTensorLayouts(op, op.getTensors().getTypes(), symbols);
}

LogicalResult ComputeOp::verify() {
  StatementAttr statement = getStatementAttr();
  if (!statement.isValid())
    return statement.emitParseError([&]() { return emitOpError(); });
  const IndexStatement &stmt = statement.getStatement();
  llvm::StringMap<DistTensorType> types;
  if (failed(verifyBindings(*this, stmt, types)))
    return failure();

  // Extents and the schedule.
  FailureOr<ComputeLoopNest> nest = getLoopNest();
  if (failed(nest))
    return failure();
  if (getAutoSchedule())
    return verifyAutoSchedule(*this);
  if (nest->nest.hasPositionSpace() &&
      llvm::none_of(getTensors().getTypes(), [](Type t) {
        return cast<DistTensorType>(t).isSparse();
      }))
    return emitOpError("schedule cannot be lowered: pos(...) iterates over "
                       "the stored entries of a sparse tensor, and this "
                       "statement has none");
  // What verifies lowers: the distributed loops must fit the output's
  // machine when it has one level or is a machine of nodes over CPUs or
  // GPUs (the lowering's own check, with its message, on the flattened
  // axes; other hierarchical machines parse but are not lowered).
  // These checks read the layouts' mesh modes: check them against their
  // grids first (verifySymbolUses, which runs after this, does it too).
  SymbolTableCollection symbols;
  if (failed(verifyTensorLayouts(*this, getTensors().getTypes(), symbols)))
    return failure();
  FlatSymbolRefAttr gridRef = types[stmt.lhs.tensor].getLayout().getGrid();
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(*this, gridRef);
  if (nest->nest.isOneSided()) {
    // The one-sided lowering computes where the stationary tensor lives
    // (no distributed loops): OneSided.h says what it takes.
    std::string why;
    FailureOr<GridShapes> grids = oneSidedGrids(*this, types, why);
    if (succeeded(grids) &&
        succeeded(matchOneSidedProduct(stmt, types, nest->nest, *grids,
                                       OneSidedCosts(), why)))
      why.clear();
    if (!why.empty())
      return emitOpError("one-sided product cannot be lowered: ") << why;
  } else if (grid && lowersAsOneLevel(grid)) {
    SmallVector<int64_t> flat;
    for (unsigned l = 0; l < grid.getNumLevels(); ++l)
      llvm::append_range(flat, grid.getLevel(l).getShape());
    if (std::optional<std::string> err =
            distributionError(nest->nest, flat, "@" + gridRef.getValue().str()))
      return emitOpError("schedule cannot be lowered: ") << *err;
  }

  // A sparse operand: only the products SparseCompute.h lists lower.
  if (llvm::any_of(getTensors().getTypes(), [](Type t) {
        return cast<DistTensorType>(t).isSparse();
      })) {
    std::string why;
    if (!grid || failed(matchSparseProduct(stmt, types, nest->nest,
                                           grid ? grid.getShape()
                                                : ArrayRef<int64_t>(),
                                           why)))
      return emitOpError("sparse computation cannot be lowered: ")
             << (grid ? why : "its grid is not in scope");
  }

  // A tensor read through two different index lists cannot be lowered
  // (the lowering moves one box per tensor; its message).
  llvm::StringMap<const Access *> accessOf;
  for (const Access *a : allAccesses(stmt)) {
    auto [it, inserted] = accessOf.try_emplace(a->tensor, a);
    if (!inserted && it->second->indices != a->indices)
      return emitOpError("cannot be lowered: tensor '")
             << a->tensor
             << "' is accessed with different index variables in one "
                "statement";
  }
  return success();
}

LogicalResult ComputeOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorLayouts(*this, getTensors().getTypes(), symbols);
}

//===----------------------------------------------------------------------===//
// Communication ops
//===----------------------------------------------------------------------===//

#define DIST_COMM_SYMBOL_USES(OP)                                              \
  LogicalResult OP::verifySymbolUses(SymbolTableCollection &symbols) {         \
    return verifyCommGrid(*this, getGridAttr(), getAxes(), symbols);           \
  }
DIST_COMM_SYMBOL_USES(BroadcastOp)
DIST_COMM_SYMBOL_USES(AllReduceOp)
DIST_COMM_SYMBOL_USES(ReduceOp)
DIST_COMM_SYMBOL_USES(AllGatherOp)
DIST_COMM_SYMBOL_USES(ReduceScatterOp)
DIST_COMM_SYMBOL_USES(ReduceScatterBlocksOp)
DIST_COMM_SYMBOL_USES(AllToAllOp)
DIST_COMM_SYMBOL_USES(GatherOp)
DIST_COMM_SYMBOL_USES(ScatterOp)
DIST_COMM_SYMBOL_USES(SendOp)
DIST_COMM_SYMBOL_USES(RecvOp)
#undef DIST_COMM_SYMBOL_USES

LogicalResult ShiftOp::verifySymbolUses(SymbolTableCollection &symbols) {
  GridOp grid;
  if (failed(verifyCommGrid(*this, getGridAttr(), {}, symbols, &grid)))
    return failure();
  int64_t rank = grid.getShape().size();
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= rank)
    return emitOpError("grid axis ")
           << axis << " is out of range for " << getGridAttr()
           << " of rank " << rank;
  return success();
}

/// Input and output of a collective hold the same element type.
static LogicalResult verifyInOut(Operation *op, Value in, Value out) {
  auto inTy = cast<MemRefType>(in.getType());
  auto outTy = cast<MemRefType>(out.getType());
  if (inTy.getElementType() != outTy.getElementType())
    return op->emitOpError("input and output element types differ: ")
           << inTy.getElementType() << " vs " << outTy.getElementType();
  return success();
}

LogicalResult AllGatherOp::verify() {
  return verifyInOut(*this, getInput(), getOutput());
}
LogicalResult ReduceScatterOp::verify() {
  return verifyInOut(*this, getInput(), getOutput());
}
LogicalResult ReduceScatterBlocksOp::verify() {
  if (failed(verifyInOut(*this, getInput(), getOutput())))
    return failure();
  APInt block;
  if (matchPattern(getBlock(), m_ConstantInt(&block)) && block.slt(1))
    return emitOpError("block ") << block.getSExtValue() << " is not positive";
  return success();
}
LogicalResult AllToAllOp::verify() {
  return verifyInOut(*this, getInput(), getOutput());
}
LogicalResult GatherOp::verify() {
  return verifyInOut(*this, getInput(), getOutput());
}
LogicalResult ScatterOp::verify() {
  return verifyInOut(*this, getInput(), getOutput());
}

#define GET_OP_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistOps.cpp.inc"
