//===- Passes.h - dist conversion passes ------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_CONVERSION_PASSES_H
#define DISTTENSOR_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace dist {

#define GEN_PASS_DECL
#include "DistTensor/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "DistTensor/Conversion/Passes.h.inc"

/// Where `dist-to-llvm` puts the tiles and transfer buffers.
enum class DeviceKind { Host, GPU, Auto };

/// Options of the `dist-to-llvm` pipeline.
struct DistToLLVMOptions : public PassPipelineOptions<DistToLLVMOptions> {
  PassOptions::Option<bool> check{
      *this, "check",
      llvm::cl::desc("Compare every computed output with a reference "
                     "computed on rank 0 and print the error"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> timing{
      *this, "timing",
      llvm::cl::desc("Print the time of every computation (between two "
                     "barriers over its grid; the maximum over the ranks)"),
      llvm::cl::init(false)};
  PassOptions::Option<double> tolerance{
      *this, "tolerance",
      llvm::cl::desc("Relative error accepted by check (default: 1e-12 for "
                     "f64, 1e-4 for f32, 0 for integers)"),
      llvm::cl::init(-1.0)};
  PassOptions::Option<std::string> redistribution{
      *this, "redistribution",
      llvm::cl::desc("How dist.redistribute is lowered: 'balanced' (the "
                     "planner's collectives) or 'general' (one exchange)"),
      llvm::cl::init("balanced")};
  PassOptions::Option<bool> insertRedistributions{
      *this, "insert-redistributions",
      llvm::cl::desc("Redistribute tensors that would need the general "
                     "exchange to the layouts their schedules imply, when "
                     "that needs no more memory per process "
                     "(dist-insert-redistributions; default on)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> costFile{
      *this, "cost-file",
      llvm::cl::desc("Measured alpha/beta for the redistribution planner "
                     "(and gamma for the one-sided products' choice)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> overlap{
      *this, "overlap",
      llvm::cl::desc("Overlap time-stepped communication with computation "
                     "(double buffering; false: blocking transfers)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> leafVectorWidth{
      *this, "leaf-vector-width",
      llvm::cl::desc("Lanes over which the sparse leaves sum their "
                     "gathered products (dist-vectorize-leaf-gathers; 0 or "
                     "1: leave the loops to the backend's vectorizer)"),
      llvm::cl::init(4)};
  PassOptions::Option<uint64_t> leafGatherAbove{
      *this, "leaf-gather-above",
      llvm::cl::desc("Bytes of x above which a sparse leaf call whose "
                     "column indices look scattered runs the backend's "
                     "vectorization (hardware gathers) instead of the vector "
                     "sums of dist-vectorize-leaf-gathers (0: always the "
                     "vector sums)"),
      llvm::cl::init(1048576)};
  PassOptions::Option<unsigned> leafPrefetchDistance{
      *this, "leaf-prefetch-distance",
      llvm::cl::desc("Entries ahead that the backend-vectorized sparse "
                     "leaves (see leaf-gather-above) prefetch the gathered "
                     "element of x (0: no prefetch)"),
      llvm::cl::init(128)};
  PassOptions::Option<bool> leafFallback{
      *this, "leaf-fallback",
      llvm::cl::desc("Scalar loops, with a warning, where a substitute "
                     "command cannot apply (default: an error)"),
      llvm::cl::init(false)};
  PassOptions::Option<DeviceKind> device{
      *this, "device",
      llvm::cl::desc("Where the tiles and transfer buffers live"),
      llvm::cl::init(DeviceKind::Auto),
      llvm::cl::values(
          clEnumValN(DeviceKind::Auto, "auto",
                     "device memory when the module's machines are made of "
                     "GPUs (gpu[..], node[..], gpu[..]), host memory "
                     "otherwise (default)"),
          clEnumValN(DeviceKind::Host, "host",
                     "host memory (machines of GPUs are refused)"),
          clEnumValN(DeviceKind::GPU, "gpu",
                     "device memory (dist-device-memory) for every machine, "
                     "for DISTRT_BACKEND=nccl (docs/gpu.md)"))};
  PassOptions::Option<std::string> gpuChip{
      *this, "gpu-chip",
      llvm::cl::desc("The GPU architecture generated kernels are compiled "
                     "for (dist-gpu-to-binary)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> gpuToolkit{
      *this, "gpu-toolkit",
      llvm::cl::desc("The CUDA toolkit whose ptxas and fatbinary compile "
                     "generated kernels (default: the configured one)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> testKernelsOnHost{
      *this, "test-kernels-on-host",
      llvm::cl::desc("Testing: make GPU kernels of the leaves over host "
                     "tiles and run them as host loops "
                     "(dist-gpu-kernels test-host-loops)"),
      llvm::cl::init(false)};
};

/// Adds the full lowering from dist IR to the LLVM dialect to `pm`.
void buildDistToLLVMPipeline(OpPassManager &pm,
                             const DistToLLVMOptions &options = {});

/// Registers the named pipelines (`dist-to-llvm`).
void registerDistPipelines();

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_CONVERSION_PASSES_H
