//===- dist-opt.cpp - the dist optimizer driver -----------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Like mlir-opt, with every upstream dialect, pass and extension plus the
// dist dialect, its passes and its named pipelines. Two defaults differ:
// diagnostics do not print the whole operation as a note
// (--mlir-print-op-on-diagnostic brings it back), and
// --dist-report-communication=quiet=1 leaves out the module on stdout.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Regex.h"

#include <string>
#include <vector>

namespace mlir::dist::test {
void registerTestPasses(); // test/lib: --test-dist-* passes
} // namespace mlir::dist::test

/// Whether the pass pipeline given on the command line (already parsed)
/// runs dist-report-communication with quiet=true.
static bool quietReportRequested(int argc, char **argv,
                                 mlir::DialectRegistry &registry) {
  bool mentioned = false;
  for (int i = 1; i < argc && !mentioned; ++i)
    mentioned = llvm::StringRef(argv[i]).contains("dist-report-communication");
  if (!mentioned)
    return false;
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  // Pipeline errors are reported when MlirOptMain builds it again.
  mlir::ScopedDiagnosticHandler swallow(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::PassManager pm(&ctx, mlir::ModuleOp::getOperationName(),
                       mlir::PassManager::Nesting::Implicit);
  if (mlir::failed(config.setupPassPipeline(pm)))
    return false;
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  pm.printAsTextualPipeline(os);
  return llvm::Regex("dist-report-communication\\{[^}]*quiet=true")
      .match(pipeline);
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::dist::registerAllDistPasses();
  mlir::dist::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::dist::registerAllDistDialects(registry);

  // Diagnostics name the operation's location and quote its source line;
  // the whole operation in generic form after each one is noise for a
  // user. Off unless the command line turns it on (the last occurrence of
  // an option wins).
  std::vector<char *> args(argv, argv + argc);
  std::string noOpNote = "--mlir-print-op-on-diagnostic=false";
  args.insert(args.begin() + 1, noOpNote.data());
  int nargs = static_cast<int>(args.size());
  args.push_back(nullptr);

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      nargs, args.data(),
      "dist optimizer driver: distributed tensor algebra in MLIR\n\n"
      "Lower a dist program to the LLVM dialect with --dist-to-llvm, then to\n"
      "LLVM IR with dist-translate --dist-to-llvmir (or use dist-run).\n"
      "Diagnostics do not print the operation as a note unless\n"
      "--mlir-print-op-on-diagnostic is given.\n",
      registry);
  // The quiet report prints only the report: no module on stdout (a file
  // named with -o is still written).
  std::string output = outputFilename;
  if (output == "-" && quietReportRequested(nargs, args.data(), registry))
    output = "/dev/null";
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(nargs, args.data(), inputFilename, output, registry));
}
