//===- dist-translate.cpp - dist translation driver -------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Like mlir-translate (all upstream translations, e.g. --mlir-to-llvmir),
// plus --dist-to-llvmir: the same export to LLVM IR with every dialect
// registered (the dist dialect and all upstream ones), so that any input
// parses, and a check before translating that says what to run first
// (dist-opt --dist-to-llvm) when an operation is not yet lowered to the
// LLVM dialect; and --dist-sanitize-address to have clang instrument the
// generated functions with AddressSanitizer; --dist-to-c-header writes the C
// header of a program compiled as a library (CHeader.cpp).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
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
      "LLVM IR (any other input: an error naming the first operation "
      "that is not lowered, and to run dist-opt --dist-to-llvm first)",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        // Every operation must be one that the export translates: one of a
        // dialect with an LLVM IR translation (llvm, omp, ...), not func,
        // arith, scf, memref or dist, which dist-opt --dist-to-llvm lowers.
        WalkResult leftover =
            op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
              if (nested == op)
                return WalkResult::advance();
              Dialect *dialect = nested->getDialect();
              bool translatable =
                  dialect &&
                  dialect->getRegisteredInterface<
                      LLVMTranslationDialectInterface>() &&
                  !isa<UnrealizedConversionCastOp>(nested);
              if (isa<ModuleOp>(nested))
                translatable = true;
              if (translatable)
                return WalkResult::advance();
              StringRef ns = dialect ? dialect->getNamespace() : "";
              InFlightDiagnostic diag = nested->emitError("'")
                                        << nested->getName() << "' ";
              if (ns == "dist")
                diag << "must be lowered before translation";
              else
                diag << "is not in the LLVM dialect: the input is not "
                        "lowered yet";
              diag << "; run dist-opt --dist-to-llvm first "
                      "(dist-translate --dist-to-llvmir translates only its "
                      "output, the LLVM dialect)";
              return WalkResult::interrupt();
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
        // All dialects, so that an input that is not lowered yet parses and
        // the check above can name what to run first.
        registerAllDialects(registry);
        registerAllToLLVMIRTranslations(registry);
        dist::registerAllDistDialects(registry);
      });
}

void registerDistToCHeaderTranslation(); // CHeader.cpp

int main(int argc, char **argv) {
  registerAllTranslations();
  registerDistToLLVMIRTranslation();
  registerDistToCHeaderTranslation();
  return failed(mlirTranslateMain(
      argc, argv, "dist translation driver (MLIR <-> LLVM IR)"));
}
