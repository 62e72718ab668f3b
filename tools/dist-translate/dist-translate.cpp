//===- dist-translate.cpp - dist translation driver -------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Like mlir-translate (all upstream translations, e.g. --mlir-to-llvmir),
// plus --dist-to-llvmir: the same export to LLVM IR with the dist dialect
// registered, which explains what to run first when dist operations are
// still present, and --dist-sanitize-address to have clang instrument the
// generated functions with AddressSanitizer.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::opt<bool> sanitizeAddress(
    "dist-sanitize-address",
    llvm::cl::desc("With --dist-to-llvmir: mark every function the module "
                   "defines `sanitize_address`, so that clang "
                   "-fsanitize=address instruments the generated code "
                   "(scripts/sanitize.sh sets it through dist-run)"),
    llvm::cl::init(false));

static void registerDistToLLVMIRTranslation() {
  TranslateFromMLIRRegistration reg(
      "dist-to-llvmir",
      "Translate the LLVM dialect produced by dist-opt --dist-to-llvm to "
      "LLVM IR",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        WalkResult leftover = op->walk([](Operation *nested) {
          if (nested->getDialect() &&
              nested->getDialect()->getNamespace() == "dist") {
            nested->emitError("'")
                << nested->getName()
                << "' must be lowered before translation; run "
                   "dist-opt --dist-to-llvm first";
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
        if (leftover.wasInterrupted())
          return failure();
        llvm::LLVMContext llvmContext;
        std::unique_ptr<llvm::Module> llvmModule =
            translateModuleToLLVMIR(op, llvmContext);
        if (!llvmModule)
          return failure();
        if (sanitizeAddress)
          for (llvm::Function &f : *llvmModule)
            if (!f.isDeclaration())
              f.addFnAttr(llvm::Attribute::SanitizeAddress);
        llvmModule->print(output, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        registry.insert<DLTIDialect, func::FuncDialect>();
        registerAllToLLVMIRTranslations(registry);
        dist::registerAllDistDialects(registry);
      });
}

int main(int argc, char **argv) {
  registerAllTranslations();
  registerDistToLLVMIRTranslation();
  return failed(mlirTranslateMain(
      argc, argv, "dist translation driver (MLIR <-> LLVM IR)"));
}
