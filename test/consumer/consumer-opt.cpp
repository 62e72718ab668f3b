//===- consumer-opt.cpp - an MLIR compiler that embeds dist -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The optimizer of "another MLIR compiler", built against the installed
// package (find_package(DistTensor)): it has its own dialects and adds the
// dist dialect, dist's passes and its named pipelines (dist-to-llvm), so
// that `consumer-opt --dist-to-llvm=check=1 timing=1 summa.mlir` lowers a
// whole dist program to the LLVM dialect exactly as dist-opt does.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // dist's passes and the dist-to-llvm pipeline, as command-line flags.
  mlir::dist::registerAllDistPasses();

  mlir::DialectRegistry registry;
  // The compiler's own dialects: what the programs it reads are written in
  // besides dist.
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  // The dist dialect; it loads the dialects it depends on (llvm,
  // sparse_tensor, ...) itself.
  mlir::dist::registerAllDistDialects(registry);
  // The dist-to-llvm pipeline lowers through arith, cf, func, index, math,
  // memref, omp, ub, ... with convert-to-llvm, which finds each dialect's
  // patterns through the dialect extensions (and the sparsifier its
  // bufferization models): without them the pipeline leaves ops such as
  // arith.floordivsi unconverted.
  mlir::registerAllExtensions(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "consumer-opt: an MLIR compiler that embeds dist\n",
      registry));
}
