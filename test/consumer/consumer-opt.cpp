// consumer-opt: an "other MLIR compiler" that embeds dist via
// find_package(DistTensor).
#include "DistTensor/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::dist::registerAllDistPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  mlir::dist::registerAllDistDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dist consumer\n", registry));
}
