//===- GpuLaunchToLLVM.cpp - launches on the runtime's stream ---*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-gpu-launch-to-llvm: upstream's gpu-to-llvm on a module with kernel
// launches, then every launch gets the distrt backend's stream as its
// async object, so that dist-translate queues it there (mgpuLaunchKernel)
// instead of on a stream of its own that the host waits for.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTGPULAUNCHTOLLVM
#include "DistTensor/Conversion/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

/// The runtime function that returns the backend's CUDA stream.
static constexpr llvm::StringLiteral kStreamFn = "distrt_gpu_stream";

namespace {
struct GpuLaunchToLLVM : dist::impl::DistGpuLaunchToLLVMBase<GpuLaunchToLLVM> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
    OpPassManager pm("builtin.module");
    pm.addPass(createGpuToLLVMConversionPass());
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto hasLaunch = [&] {
      return module
          .walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
    };
    if (!hasLaunch())
      return;
    OpPassManager pm("builtin.module");
    pm.addPass(createGpuToLLVMConversionPass());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();

    // Declared with the runtime table's signature (RuntimeFunctions.def).
    FailureOr<const dist::abi::RuntimeFunction *> entry =
        dist::abi::lookupRuntimeFunction(module.getLoc(), kStreamFn, {});
    if (failed(entry))
      return signalPassFailure();
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kStreamFn);
    if (!fn)
      fn = LLVM::LLVMFuncOp::create(
          mb, module.getLoc(), kStreamFn,
          dist::abi::getLLVMFunctionType(&getContext(), **entry));
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getAsyncObject())
        return;
      OpBuilder b(launch);
      Value stream =
          LLVM::CallOp::create(b, launch.getLoc(), fn, ValueRange{})
              .getResult();
      launch.getAsyncObjectMutable().assign(stream);
    });
  }
};
} // namespace
