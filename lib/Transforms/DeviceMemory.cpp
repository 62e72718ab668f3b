//===- DeviceMemory.cpp - tiles and buffers in device memory ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-device-memory (`dist-to-llvm{device=gpu}`, `dist-run --backend
// nccl`): the SPMD program's tiles and transfer buffers become device
// memory (dist.device_alloc / dist.device_free), the --check
// instrumentation's gathered copies stay on the host, the zeroing loops of
// partial results become dist.zero_buffer, and everything that would still
// have no device form is rejected with a located error. The leaves that are
// not library calls become GPU kernels in dist-gpu-kernels, which runs next.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Transforms/Passes.h"
#include "DeviceMemoryUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTDEVICEMEMORY
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

/// The ops of the --check instrumentation that read or write host copies.
static bool isCheckOp(Operation *op) {
  return isa<GatherTileOp, ReferenceOp, CheckResultOp, CheckUnchangedOp,
             SumReferenceOp>(op);
}

/// Whether `v` (a buffer, or a view of one) is a host copy of the check:
/// it reaches a check op and nothing else (but its deallocation). A tile
/// that a check also reads (an inserted redistribution's target, which the
/// leaves use too) goes to the device; the runtime's checks stage it.
static bool onlyFeedsCheck(Value v, bool &reached) {
  for (Operation *user : v.getUsers()) {
    if (isCheckOp(user)) {
      reached = true;
      continue;
    }
    if (isa<memref::DeallocOp>(user))
      continue;
    if (isa<ViewLikeOpInterface, memref::CastOp>(user) &&
        llvm::all_of(user->getResults(),
                     [&](Value r) { return onlyFeedsCheck(r, reached); }))
      continue;
    return false;
  }
  return true;
}

static bool feedsCheck(Value v) {
  bool reached = false;
  return onlyFeedsCheck(v, reached) && reached;
}

/// Tiles and transfer buffers (flat memrefs that no check op reads) become
/// dist.device_alloc, their deallocations dist.device_free.
static void moveToDevice(ModuleOp module) {
  SmallVector<memref::AllocOp> allocs;
  module.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (type.getRank() == 1 && type.getLayout().isIdentity() &&
        !feedsCheck(alloc.getResult()))
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs) {
    OpBuilder b(alloc);
    Value size =
        alloc.getDynamicSizes().empty() ? Value() : alloc.getDynamicSizes()[0];
    auto dev = DeviceAllocOp::create(b, alloc.getLoc(), alloc.getType(), size);
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        // Device memory goes back before the runtime finalises (@main's
        // tensors are deallocated after dist.runtime_finalize; host
        // buffers may be, device ones not: the backend is gone then).
        Operation *at = dealloc;
        for (Operation *p = dealloc->getPrevNode(); p; p = p->getPrevNode())
          if (isa<RuntimeFinalizeOp>(p))
            at = p;
        OpBuilder fb(at);
        DeviceFreeOp::create(fb, dealloc.getLoc(), dealloc.getMemref());
        dealloc.erase();
      }
    }
    alloc.replaceAllUsesWith(dev.getBuffer());
    alloc.erase();
  }
  // A sparse matrix's device copies go back with it: free it before the
  // runtime finalizes too.
  module.walk([&](SparseFreeOp free) {
    Operation *at = nullptr;
    for (Operation *p = free->getPrevNode(); p; p = p->getPrevNode())
      if (isa<RuntimeFinalizeOp>(p))
        at = p;
    if (at)
      free->moveBefore(at);
  });
}

/// `for i in [0, n) { buf[i] = 0 }` on a device buffer (the zeroing of a
/// partial result, lib/Transforms/SPMD/ComputeTransfers.cpp) becomes
/// dist.zero_buffer buf, n.
static void zeroLoopsToRuntime(ModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) {
    Block *body = loop.getBody();
    if (!matchPattern(loop.getLowerBound(), m_Zero()) ||
        !matchPattern(loop.getStep(), m_One()) || loop.getNumResults() ||
        body->getOperations().size() != 2)
      return;
    auto store = dyn_cast<memref::StoreOp>(body->front());
    if (!store || store.getIndices().size() != 1 ||
        store.getIndices()[0] != loop.getInductionVar() ||
        isHostMemory(store.getMemRef()) ||
        !(matchPattern(store.getValue(), m_AnyZeroFloat()) ||
          matchPattern(store.getValue(), m_Zero())))
      return;
    loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    auto store = cast<memref::StoreOp>(loop.getBody()->front());
    OpBuilder b(loop);
    ZeroBufferOp::create(b, loop.getLoc(), store.getMemRef(),
                         loop.getUpperBound());
    loop.erase();
  }
}

/// Sums of integer boxes: cuBLAS's geam has no integer form (dist.gemm,
/// dist.gemv and dist.dot take floats only).
static bool accumulatesIntegers(Operation *op) {
  if (!isa<AddBoxOp, AccumulateBoxOp>(op))
    return false;
  auto type = cast<MemRefType>(op->getOperand(0).getType());
  return isa<IntegerType>(type.getElementType());
}

/// Emits the error for `op` when it has no device form yet; true when it
/// did. Leaves over device tiles that are not library calls become GPU
/// kernels afterwards (dist-gpu-kernels).
static bool rejectOnDevice(Operation *op) {
  if (isa<SparsePartOp, SparseShareXOp, SparseExchangeBeginOp,
          SparseOffdiagRowsOp>(op)) {
    op->emitError("this sparse product was lowered for host tiles (its "
                  "leaves read the tiles on the host); lower it with "
                  "dist-materialize-spmd device=gpu or device=auto, as "
                  "dist-to-llvm does, so that it runs in the runtime "
                  "(dist.sparse_mul_add, cuSPARSE)");
    return true;
  }
  if (isa<OneSidedMatmulOp>(op)) {
    op->emitError("one-sided products are not supported on device tiles "
                  "yet (issue #16); use a two-sided schedule, or compile "
                  "without device=gpu (dist-run --backend mpi)");
    return true;
  }
  if (accumulatesIntegers(op)) {
    op->emitError("integer accumulation is not supported on device tiles "
                  "(cuBLAS has no integer GEMM); use f32 or f64, or compile "
                  "without device=gpu (dist-run --backend mpi)");
    return true;
  }
  return false;
}

namespace {
struct DeviceMemory : dist::impl::DistDeviceMemoryBase<DeviceMemory> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (onlyGpuMachines) {
      GridOp gpuGrid, cpuGrid;
      for (GridOp g : module.getOps<GridOp>()) {
        GridOp &slot =
            g.getLevel(g.getNumLevels() - 1).getKind() == ProcessorKind::gpu
                ? gpuGrid
                : cpuGrid;
        if (!slot)
          slot = g;
      }
      if (!gpuGrid)
        return;
      if (cpuGrid) {
        cpuGrid.emitError("grid '")
            << cpuGrid.getSymName() << "' is made of CPUs, but grid '"
            << gpuGrid.getSymName()
            << "' of the same module is made of GPUs: every tile of a "
               "module lives in one kind of memory (dist-to-llvm "
               "device=auto); make every machine gpu[..] (or node[..], "
               "gpu[..]), or compile with device=gpu to put all tiles on "
               "the GPUs";
        return signalPassFailure();
      }
    }
    module->setAttr(kDeviceMemoryAttrName, UnitAttr::get(&getContext()));
    moveToDevice(module);
    zeroLoopsToRuntime(module);
    bool failed = false;
    // One error per function: a statement lowers to many ops (a loop nest
    // of loads and stores, the sparse tile's ops) that are all its fault.
    llvm::SmallPtrSet<Operation *, 4> reported;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (reported.contains(op->getParentOfType<FunctionOpInterface>()))
        return WalkResult::advance();
      if (!rejectOnDevice(op))
        return WalkResult::advance();
      reported.insert(op->getParentOfType<FunctionOpInterface>());
      failed = true;
      return WalkResult::skip();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
