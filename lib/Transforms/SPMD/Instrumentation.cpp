//===- Instrumentation.cpp - check and timing of SPMD code ----------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "Instrumentation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

double spmd::checkTolerance(const SPMDOptions &options, Type elt) {
  double tol = options.tolerance;
  if (tol < 0)
    tol = elt.isF64() ? 1e-12 : elt.isF32() ? 1e-4 : 0.0;
  return tol;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Every axis of a grid of rank `gridRank`.
static SmallVector<int64_t> allAxes(int64_t gridRank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, gridRank));
}

Value spmd::startTiming(OpBuilder &b, Location loc, FlatSymbolRefAttr grid,
                        int64_t gridRank) {
  // The clock starts after a barrier and stops after another one, so that
  // the maximum over the processes is the computation's makespan: without
  // them, processes of a computation that does not communicate could run
  // their parts one after the other on shared cores and each report only
  // its own part.
  BarrierOp::create(b, loc, grid.getValue(), allAxes(gridRank));
  // Marks the computation for DISTRT_PROFILE (a no-op otherwise);
  // dist.report_time ends it.
  ProfileKernelBeginOp::create(b, loc);
  return WtimeOp::create(b, loc, b.getF64Type());
}

void spmd::stopTiming(OpBuilder &b, Location loc, FlatSymbolRefAttr grid,
                      int64_t gridRank, Value timer,
                      const IndexStatement &stmt) {
  BarrierOp::create(b, loc, grid.getValue(), allAxes(gridRank));
  Value end = WtimeOp::create(b, loc, b.getF64Type());
  Value secs = arith::SubFOp::create(b, loc, end, timer);
  std::string text;
  llvm::raw_string_ostream os(text);
  stmt.print(os);
  ReportTimeOp::create(b, loc, text, secs, grid.getValue());
}

void spmd::stopTiming(OpBuilder &b, Location loc, FlatSymbolRefAttr grid,
                      int64_t gridRank, Value timer, StringRef name) {
  BarrierOp::create(b, loc, grid.getValue(), allAxes(gridRank));
  Value end = WtimeOp::create(b, loc, b.getF64Type());
  Value secs = arith::SubFOp::create(b, loc, end, timer);
  ReportTimeOp::create(b, loc, name, secs, grid.getValue());
}

//===----------------------------------------------------------------------===//
// The reference check of computations
//===----------------------------------------------------------------------===//

/// The local tile of distributed tensor `tensor` (dist.local_tile).
static Value tileOf(SPMDBuilder &rt, Value tensor) {
  return rt.tileOf(tensor.getParentBlock()->getParentOp(), tensor);
}

/// A buffer for the whole tensor `t` (of its shape).
static Value allocWhole(OpBuilder &b, Location loc, DistTensorType t) {
  return memref::AllocOp::create(
      b, loc, MemRefType::get(t.getShape(), t.getElementType()));
}

llvm::StringMap<Value> spmd::gatherForCheck(
    SPMDBuilder &rt, OpBuilder &b, Location loc, const IndexStatement &stmt,
    llvm::StringMap<DistTensorType> &types, llvm::StringMap<Value> &values) {
  llvm::StringMap<Value> globals;
  for (const std::string &t : stmt.tensorNames()) {
    DistTensorType type = types[t];
    Value whole = allocWhole(b, loc, type);
    globals[t] = whole;
    bool readsOut = t != stmt.lhs.tensor || stmt.accumulate;
    if (type.isSparse() && readsOut)
      SparseGatherOp::create(b, loc, tileOf(rt, values[t]), whole,
                             /*root=*/0);
    else if (!type.isSparse() && readsOut)
      GatherTileOp::create(b, loc, tileOf(rt, values[t]), type, whole,
                           /*root=*/0);
  }
  return globals;
}

/// Reference check: rank 0 evaluates the unscheduled statement over the
/// copies `globals` made before the computation (a sparse tensor gathered
/// dense, dist.sparse_gather) with the runtime's own
/// evaluator of index notation (dist.reference, which shares no code with
/// this lowering), and the runtime compares every copy of the output on
/// every process with it. Every copy of every input must still equal its
/// copy from before.
void spmd::emitCheck(SPMDBuilder &rt, OpBuilder &b, ComputeOp op,
                     const IndexStatement &stmt,
                     llvm::StringMap<DistTensorType> &types,
                     llvm::StringMap<Value> &values, Type elt,
                     llvm::StringMap<Value> &globals) {
  Location loc = op.getLoc();
  FlatSymbolRefAttr grid = types[stmt.lhs.tensor].getLayout().getGrid();
  Value rank = GridRankOp::create(b, loc, b.getIndexType(), grid);
  Value isRoot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                       rt.idx(b, loc, 0));
  std::string text;
  llvm::raw_string_ostream os(text);
  stmt.print(os);
  SmallVector<std::string> names = stmt.tensorNames();
  scf::IfOp::create(b, loc, isRoot, [&](OpBuilder &tb, Location l) {
    SmallVector<Value> buffers;
    for (const std::string &t : names)
      buffers.push_back(globals[t]);
    ReferenceOp::create(
        tb, l, text,
        tb.getStrArrayAttr(SmallVector<StringRef>(names.begin(), names.end())),
        buffers);
    scf::YieldOp::create(tb, l);
  });
  auto tileOfT = [&](StringRef t) { return tileOf(rt, values[t]); };
  const std::string &out = stmt.lhs.tensor;
  llvm::APFloat tol(checkTolerance(rt.options, elt));
  // A sparse output (SDDMM's) is gathered dense on rank 0 and compared
  // there, every element, stored or not.
  if (types[out].isSparse())
    SparseCheckResultOp::create(b, loc, tileOfT(out), globals[out], text,
                                tol);
  else
    CheckResultOp::create(b, loc, tileOfT(out), types[out], globals[out],
                          text, tol);
  // A sparse input is not compared: no SPMD op writes a sparse input's
  // entries (SDDMM and sums write their output only; the exchange plan
  // beside the entries is not part of the value).
  for (const std::string &t : names)
    if (t != out && !types[t].isSparse())
      CheckUnchangedOp::create(b, loc, tileOfT(t), types[t], globals[t],
                               "input " + t + " of " + text);
  for (const std::string &t : names)
    memref::DeallocOp::create(b, loc, globals[t]);
}

//===----------------------------------------------------------------------===//
// The check of redistributions
//===----------------------------------------------------------------------===//

void spmd::checkRedistribute(OpBuilder &b, Location loc, DistTensorType st,
                             DistTensorType dt, Value s, Value d) {
  // The destination must hold exactly the gathered source.
  Value global = allocWhole(b, loc, st);
  GatherTileOp::create(b, loc, s, st, global, /*root=*/0);
  CheckResultOp::create(b, loc, d, dt, global, "redistribute",
                        llvm::APFloat(0.0));
  memref::DeallocOp::create(b, loc, global);
}

void spmd::checkPartialSum(SPMDBuilder &rt, OpBuilder &b, Location loc,
                           DistTensorType st, DistTensorType dt, Value s,
                           Value d, ArrayRef<int64_t> sum) {
  // Reference on rank 0: the gathered source summed over the dims.
  Value global = allocWhole(b, loc, st);
  Value ref = allocWhole(b, loc, dt);
  GatherTileOp::create(b, loc, s, st, global, /*root=*/0);
  SumReferenceOp::create(b, loc, global, ref,
                         st.getLayout().getGrid().getValue(), sum,
                         /*root=*/0);
  double tol = checkTolerance(rt.options, st.getElementType());
  CheckResultOp::create(b, loc, d, dt, ref, "redistribute sum",
                        llvm::APFloat(tol));
  memref::DeallocOp::create(b, loc, ref);
  memref::DeallocOp::create(b, loc, global);
}
