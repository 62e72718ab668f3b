//===- GpuToBinary.cpp - kernels into an embedded fat binary ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-gpu-to-binary: upstream's GPU compilation (outlining, NVVM, ptxas and
// fatbinary through gpu-module-to-binary) on a module with gpu.launch ops,
// and nothing on any other module, so that CPU programs compile as before
// and need no CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTGPUTOBINARY
#include "DistTensor/Conversion/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

#ifndef DIST_DEFAULT_CUDA_TOOLKIT
#define DIST_DEFAULT_CUDA_TOOLKIT "/usr/local/cuda"
#endif

namespace {
struct GpuToBinary : dist::impl::DistGpuToBinaryBase<GpuToBinary> {
  using Base::Base;

  /// Upstream's GPU compilation, with the binary made by `toolkitDir`.
  OpPassManager pipeline(StringRef toolkitDir) const {
    OpPassManager pm("builtin.module");
    pm.addPass(createGpuKernelOutliningPass());
    GpuNVVMAttachTargetOptions target;
    target.chip = chip;
    target.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(target));
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    kernels.addPass(memref::createExpandStridedMetadataPass());
    kernels.addPass(createLowerAffinePass());
    kernels.addPass(createSCFToControlFlowPass());
    kernels.addPass(createConvertGpuOpsToNVVMOps());
    kernels.addPass(createReconcileUnrealizedCastsPass());
    GpuModuleToBinaryPassOptions binary;
    binary.toolkitPath = toolkitDir.str();
    binary.compilationTarget = "fatbin";
    pm.addPass(createGpuModuleToBinaryPass(binary));
    return pm;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, NVVM::NVVMDialect, LLVM::LLVMDialect>();
    // gpu-module-to-binary translates each gpu.module to LLVM IR and
    // serializes it through the NVVM target: their interfaces, whatever
    // the tool registered.
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
    pipeline("").getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    gpu::LaunchOp first;
    module.walk([&](gpu::LaunchOp l) {
      first = l;
      return WalkResult::interrupt();
    });
    if (!first)
      return;
    std::string dir = toolkit;
    if (dir.empty())
      dir = DIST_DEFAULT_CUDA_TOOLKIT;
    llvm::SmallString<256> ptxas(dir), fatbinary(dir);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    for (const llvm::SmallString<256> &tool : {ptxas, fatbinary})
      if (!llvm::sys::fs::can_execute(tool)) {
        first.emitError("this leaf is a GPU kernel, which needs CUDA's "
                        "ptxas and fatbinary to compile, but '")
            << tool
            << "' is not there; install the CUDA toolkit or name it with "
               "dist-to-llvm gpu-toolkit=DIR (dist-gpu-to-binary toolkit=DIR)";
        return signalPassFailure();
      }
    if (!llvm::StringRef(chip).starts_with("sm_")) {
      first.emitError("gpu-chip '") << chip << "' is not an sm_XX name";
      return signalPassFailure();
    }

    OpPassManager pm = pipeline(dir);
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};
} // namespace
