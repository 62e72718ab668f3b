//===- Pipelines.cpp - named dist pipelines ---------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SparseTensor/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Sparse leaves are linalg.generic ops on sparse_tensor-encoded operands
/// (lib/Transforms/SPMD/SparseCompute.cpp), which the upstream sparsifier
/// compiles into loops over the CSR buffers: direct code generation (no
/// sparse runtime library), without the sparsifier's own vectorization
/// (measured slower: masked gathers, one accumulator); the SpMV / SpMM
/// leaves' gathered row sums are then vectorized by
/// dist-vectorize-leaf-gathers (`leafVectorWidth` lanes; calls whose x
/// holds more than `leafGatherAbove` bytes and whose column indices look
/// scattered run the original loops, which prefetch x
/// `leafPrefetchDistance` entries ahead), the rest is left to the LLVM
/// backend. A module without
/// sparse tensors passes through unchanged.
static void addSparsifier(OpPassManager &pm, unsigned leafVectorWidth,
                          uint64_t leafGatherAbove,
                          unsigned leafPrefetchDistance) {
  pm.addPass(createSparseReinterpretMapPass());
  SparsificationOptions sparsification;
  pm.addPass(createSparsificationAndBufferizationPass(
      getBufferizationOptionsForSparsification(/*analysisOnly=*/false),
      sparsification, /*createSparseDeallocs=*/true,
      /*enableRuntimeLibrary=*/false, /*enableBufferInitialization=*/false,
      /*vectorLength=*/0, /*enableVLAVectorization=*/false,
      /*enableSIMDIndex32=*/false, /*enableGPULibgen=*/false,
      SparseEmitStrategy::kFunctional, SparseParallelizationStrategy::kNone));
  pm.addPass(createStorageSpecifierToLLVMPass());
  // A sparse output the leaf assembles (a sum of sparse matrices) grows
  // its buffers with memref.realloc: alloc, copy and dealloc.
  pm.addPass(memref::createExpandReallocPass());
  // The sparsifier rebuilt the leaves' loops without fast-math flags.
  pm.addPass(dist::createDistReassociateLeaves());
  // The first leaf of a product that assigns sets its output.
  pm.addPass(dist::createDistOverwriteLeaves());
  // Gathered sums a vector at a time from scalar loads where x is small,
  // the backend's hardware gathers where it is large.
  dist::DistVectorizeLeafGathersOptions gathers;
  gathers.width = leafVectorWidth;
  gathers.gatherAbove = leafGatherAbove;
  gathers.prefetchDistance = leafPrefetchDistance;
  pm.addPass(dist::createDistVectorizeLeafGathers(gathers));
}

void dist::buildDistToLLVMPipeline(OpPassManager &pm,
                                   const DistToLLVMOptions &options) {
  DistMaterializeSPMDOptions spmd;
  spmd.check = options.check;
  spmd.timing = options.timing;
  spmd.tolerance = options.tolerance;
  spmd.redistribution = options.redistribution;
  spmd.costFile = options.costFile;
  // Upstream shard annotations become dist IR; what is left is refused.
  pm.addPass(dist::createDistImportShard());
  pm.addPass(dist::createDistRejectForeignAnnotations());
  // Machines of nodes become one-level grids with node axes, before any
  // pass that plans data movement on the machine.
  pm.addPass(dist::createDistFlattenMachines());
  // `schedule auto` computations get their schedules, before any pass that
  // reads a schedule.
  {
    DistAutoScheduleOptions autoOptions;
    autoOptions.costFile = options.costFile;
    autoOptions.insertRedistributions = options.insertRedistributions;
    pm.addPass(dist::createDistAutoSchedule(autoOptions));
  }
  if (options.insertRedistributions)
    pm.addPass(createDistInsertRedistributions());
  pm.addPass(createDistSimplifyRedistributions());
  spmd.overlap = options.overlap;
  spmd.leafFallback = options.leafFallback;
  // test-kernels-on-host lowers as for device tiles (the kernels' shapes,
  // the sparse products in the runtime) and keeps the tiles on the host.
  spmd.device = options.device == DeviceKind::GPU || options.testKernelsOnHost
                    ? "gpu"
                : options.device == DeviceKind::Auto ? "auto"
                                                     : "host";
  pm.addPass(createDistMaterializeSPMD(spmd));
  pm.addPass(createDistSimplifyRedistributions());
  // device=gpu: tiles and transfer buffers in device memory; what would
  // still touch them on the host is rejected here. device=auto: the same
  // for a module whose machines are made of GPUs.
  if (options.device != DeviceKind::Host) {
    DistDeviceMemoryOptions device;
    device.onlyGpuMachines = options.device == DeviceKind::Auto;
    pm.addPass(createDistDeviceMemory(device));
  }
  // Leaves over device tiles that are not library calls: GPU kernels.
  if (options.device != DeviceKind::Host || options.testKernelsOnHost) {
    DistGpuKernelsOptions kernels;
    kernels.testHostLoops = options.testKernelsOnHost;
    pm.addPass(createDistGpuKernels(kernels));
  }
  pm.addPass(createConvertDistToRuntime());
  addSparsifier(pm, options.leafVectorWidth, options.leafGatherAbove,
                options.leafPrefetchDistance);
  pm.addPass(createCanonicalizerPass());
  // The kernels into an embedded fat binary (nothing without gpu.launch).
  DistGpuToBinaryOptions binary;
  binary.chip = options.gpuChip;
  binary.toolkit = options.gpuToolkit;
  pm.addPass(createDistGpuToBinary(binary));
  // Leaves that are not library calls are linalg.generic ops on strided
  // views of the tiles: plain loops, vectorised later by the LLVM backend.
  pm.addPass(createConvertLinalgToLoopsPass());
  // parallelize(): scf.parallel loops become OpenMP worksharing loops.
  pm.addPass(createConvertSCFToOpenMPPass());
  // Inlines the memref.alloca_scope ops it wraps loop bodies in (they hold
  // no allocas), which control-flow lowering could not keep valid.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Buffers come from the runtime's allocator (runtime/lib/alloc.c), which
  // keeps large freed blocks for the next call of a kernel instead of
  // returning them to the system and page-faulting them in again.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  // The sparse leaves' vector sums (vector.from_elements, reduction).
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  // The leaves' outputs that no other argument reaches get llvm.noalias,
  // which func-to-llvm drops from memref arguments.
  pm.addPass(dist::createDistRestrictLeaves());
  // Kernel launches on the runtime's stream (nothing without them).
  pm.addPass(createDistGpuLaunchToLLVM());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void dist::registerDistPipelines() {
  PassPipelineRegistration<DistToLLVMOptions>(
      "dist-to-llvm",
      "Lower a dist program (machines, distributed tensors, scheduled "
      "statements, communication, scf/memref/arith) all the way to the LLVM "
      "dialect, ready for dist-translate",
      [](OpPassManager &pm, const DistToLLVMOptions &options) {
        buildDistToLLVMPipeline(pm, options);
      });
}
