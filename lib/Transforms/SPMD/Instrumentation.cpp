//===- Instrumentation.cpp - check and timing of SPMD code ----------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "Instrumentation.h"

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

using abi::dtypeOf;
using abi::layoutDescriptor;

double spmd::checkTolerance(const SPMDOptions &options, Type elt) {
  double tol = options.tolerance;
  if (tol < 0)
    tol = elt.isF64() ? 1e-12 : elt.isF32() ? 1e-4 : 0.0;
  return tol;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// The mask of all `gridRank` axes of the grid.
static Value allAxes(SPMDBuilder &rt, OpBuilder &b, Location loc,
                     int64_t gridRank) {
  return rt.i64(b, loc, (int64_t(1) << gridRank) - 1);
}

Value spmd::startTiming(SPMDBuilder &rt, OpBuilder &b, Location loc, Value g,
                        int64_t gridRank) {
  // The clock starts after a barrier and stops after another one, so that
  // the maximum over the processes is the computation's makespan: without
  // them, processes of a computation that does not communicate could run
  // their parts one after the other on shared cores and each report only
  // its own part.
  rt.call(b, loc, "distrt_barrier", {g, allAxes(rt, b, loc, gridRank)});
  // Marks the computation for DISTRT_PROFILE (a no-op otherwise);
  // distrt_report_time ends it.
  rt.call(b, loc, "distrt_profile_kernel_begin", {});
  return rt.call(b, loc, "distrt_wtime", {});
}

void spmd::stopTiming(SPMDBuilder &rt, OpBuilder &b, Location loc, Value g,
                      int64_t gridRank, Value timer,
                      const IndexStatement &stmt) {
  rt.call(b, loc, "distrt_barrier", {g, allAxes(rt, b, loc, gridRank)});
  Value end = rt.call(b, loc, "distrt_wtime", {});
  Value secs = arith::SubFOp::create(b, loc, end, timer);
  std::string text;
  llvm::raw_string_ostream os(text);
  stmt.print(os);
  rt.call(b, loc, "distrt_report_time",
          {g, rt.constString(b, loc, text), secs});
}

//===----------------------------------------------------------------------===//
// The reference check of computations
//===----------------------------------------------------------------------===//

/// Whole copies, on rank 0, of every input and (for `+=`) of the output
/// as they are before the computation.
llvm::StringMap<Value>
spmd::gatherForCheck(SPMDBuilder &rt, OpBuilder &b, Location loc,
                     const IndexStatement &stmt,
                     llvm::StringMap<DistTensorType> &types,
                     llvm::StringMap<Value> &values, Value g, Type elt) {
  llvm::StringMap<Value> globals;
  for (const std::string &t : stmt.tensorNames()) {
    DistTensorType type = types[t];
    Value whole = memref::AllocOp::create(
        b, loc, MemRefType::get({type.getNumElements()}, elt));
    globals[t] = whole;
    if (t != stmt.lhs.tensor || stmt.accumulate)
      rt.call(b, loc, "distrt_layout_gather",
              {g, rt.constArray(b, loc, layoutDescriptor(type)),
               rt.ptrOf(b, loc, rt.tileOf(values[t].getParentBlock()->getParentOp(), values[t])),
               rt.i64(b, loc, dtypeOf(elt)), rt.ptrOf(b, loc, whole),
               rt.i64(b, loc, 0)});
  }
  return globals;
}

/// Reference check: rank 0 evaluates the unscheduled statement over the
/// copies `globals` made before the computation with the runtime's own
/// evaluator of index notation (distrt_reference_*, which shares no code
/// with this lowering), and the runtime compares every copy of the output
/// on every process with it. Every copy of every input must still equal
/// its copy from before.
void spmd::emitCheck(SPMDBuilder &rt, OpBuilder &b, ComputeOp op,
                     const IndexStatement &stmt,
                     llvm::StringMap<DistTensorType> &types,
                     llvm::StringMap<Value> &values, Value g, Type elt,
                     llvm::StringMap<Value> &globals) {
  Location loc = op.getLoc();
  Value rank = rt.call(b, loc, "distrt_grid_rank", {g});
  Value isRoot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                       rt.i64(b, loc, 0));
  std::string text;
  llvm::raw_string_ostream os(text);
  stmt.print(os);
  SmallVector<std::string> names = stmt.tensorNames();
  scf::IfOp::create(b, loc, isRoot, [&](OpBuilder &tb, Location l) {
    Value ref =
        rt.call(tb, l, "distrt_reference_begin",
                {rt.constString(tb, l, text), rt.i64(tb, l, dtypeOf(elt))});
    for (const std::string &t : names) {
      ArrayRef<int64_t> shape = types[t].getShape();
      SmallVector<int64_t> dims(shape);
      if (dims.empty())
        dims.push_back(1); // an order-0 tensor: rank 0, one element
      rt.call(tb, l, "distrt_reference_bind",
              {ref, rt.constString(tb, l, t), rt.i64(tb, l, shape.size()),
               rt.constArray(tb, l, dims), rt.ptrOf(tb, l, globals[t])});
    }
    rt.call(tb, l, "distrt_reference_run", {ref});
    scf::YieldOp::create(tb, l);
  });
  double tol = checkTolerance(rt.options, elt);
  auto checkAgainst = [&](StringRef fn, StringRef t, StringRef label,
                          double tolerance) {
    rt.call(b, loc, fn,
            {g, rt.constString(b, loc, label),
             rt.constArray(b, loc, layoutDescriptor(types[t])),
             rt.ptrOf(b, loc, rt.tileOf(values[t].getParentBlock()->getParentOp(), values[t])),
             rt.i64(b, loc, dtypeOf(elt)), rt.ptrOf(b, loc, globals[t]),
             arith::ConstantOp::create(b, loc, rt.f64Ty,
                                       b.getF64FloatAttr(tolerance))});
  };
  checkAgainst("distrt_check_result", stmt.lhs.tensor, text, tol);
  for (const std::string &t : names)
    if (t != stmt.lhs.tensor)
      checkAgainst("distrt_check_unchanged", t, "input " + t + " of " + text,
                   0.0);
  for (const std::string &t : names)
    memref::DeallocOp::create(b, loc, globals[t]);
}

//===----------------------------------------------------------------------===//
// The check of redistributions
//===----------------------------------------------------------------------===//

void spmd::checkRedistribute(SPMDBuilder &rt, OpBuilder &b, Location loc,
                             DistTensorType st, DistTensorType dt, Value s,
                             Value d, Value dtype) {
  // The destination must hold exactly the gathered source.
  Value gs = rt.gridHandle(b, loc, st.getLayout().getGrid());
  Value gd = rt.gridHandle(b, loc, dt.getLayout().getGrid());
  Value global = memref::AllocOp::create(
      b, loc, MemRefType::get({st.getNumElements()}, st.getElementType()));
  rt.call(b, loc, "distrt_layout_gather",
          {gs, rt.constArray(b, loc, layoutDescriptor(st)), rt.ptrOf(b, loc, s),
           dtype, rt.ptrOf(b, loc, global), rt.i64(b, loc, 0)});
  rt.call(
      b, loc, "distrt_check_result",
      {gd, rt.constString(b, loc, "redistribute"),
       rt.constArray(b, loc, layoutDescriptor(dt)), rt.ptrOf(b, loc, d), dtype,
       rt.ptrOf(b, loc, global),
       arith::ConstantOp::create(b, loc, rt.f64Ty, b.getF64FloatAttr(0.0))});
  memref::DeallocOp::create(b, loc, global);
}

void spmd::checkPartialSum(SPMDBuilder &rt, OpBuilder &b, Location loc,
                           DistTensorType st, DistTensorType dt, Value s,
                           Value d, Value dtype, Value g, int64_t sumMask) {
  Type elt = st.getElementType();
  // Reference on rank 0: the gathered source summed over the dims.
  Value global = memref::AllocOp::create(
      b, loc, MemRefType::get({st.getNumElements()}, elt));
  Value ref = memref::AllocOp::create(
      b, loc, MemRefType::get({dt.getNumElements()}, elt));
  rt.call(b, loc, "distrt_layout_gather",
          {g, rt.constArray(b, loc, layoutDescriptor(st)), rt.ptrOf(b, loc, s),
           dtype, rt.ptrOf(b, loc, global), rt.i64(b, loc, 0)});
  rt.call(b, loc, "distrt_sum_reference",
          {g, rt.i64(b, loc, 0), rt.ptrOf(b, loc, global), dtype,
           rt.i64(b, loc, st.getRank()),
           rt.constArray(b, loc, SmallVector<int64_t>(st.getShape())),
           rt.i64(b, loc, sumMask), rt.ptrOf(b, loc, ref)});
  double tol = checkTolerance(rt.options, elt);
  rt.call(
      b, loc, "distrt_check_result",
      {rt.gridHandle(b, loc, dt.getLayout().getGrid()),
       rt.constString(b, loc, "redistribute sum"),
       rt.constArray(b, loc, layoutDescriptor(dt)), rt.ptrOf(b, loc, d), dtype,
       rt.ptrOf(b, loc, ref),
       arith::ConstantOp::create(b, loc, rt.f64Ty, b.getF64FloatAttr(tol))});
  memref::DeallocOp::create(b, loc, ref);
  memref::DeallocOp::create(b, loc, global);
}
