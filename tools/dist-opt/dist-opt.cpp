//===- dist-opt.cpp - the dist optimizer driver -----------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Like mlir-opt, with every upstream dialect, pass and extension plus the
// dist dialect, its passes and its named pipelines.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::dist::test {
void registerTestPasses(); // test/lib: --test-dist-* passes
} // namespace mlir::dist::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::dist::registerAllDistPasses();
  mlir::dist::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::dist::registerAllDistDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "dist optimizer driver: distributed tensor algebra in MLIR\n\n"
      "Lower a dist program to the LLVM dialect with --dist-to-llvm, then to\n"
      "LLVM IR with dist-translate --mlir-to-llvmir (or use dist-run).\n",
      registry));
}
