//===- dist-opt.cpp - the dist optimizer driver -----------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Like mlir-opt, with every upstream dialect, pass and extension plus the
// dist dialect, its passes and its named pipelines. Two defaults differ:
// diagnostics do not print the whole operation as a note
// (--mlir-print-op-on-diagnostic brings it back), and
// --dist-report-communication=quiet=1 leaves out the module on stdout.
// Before any pass, a guard rejects parsed IR that upstream MLIR 22 verifies
// but then crashes on (see GuardUpstream below), so malformed input gets
// an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"

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

namespace {
/// Runs first in every dist-opt pipeline. Upstream MLIR 22 parses and
/// verifies a `shard.sharding` whose static halo sizes or sharded-dims
/// offsets hold -9223372036854775808 (the marker of a dynamic value) with
/// no dynamic operand for it, then crashes printing it (the printer reads
/// a dynamic operand that does not exist). The guard makes that an error
/// at the op.
struct GuardUpstream
    : mlir::PassWrapper<GuardUpstream, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GuardUpstream)
  llvm::StringRef getArgument() const final { return "dist-guard-upstream"; }
  void runOnOperation() override {
    bool bad = false;
    getOperation()->walk([&](mlir::shard::ShardingOp op) {
      auto markers = [](llvm::ArrayRef<int64_t> v) {
        return static_cast<size_t>(llvm::count(v, mlir::ShapedType::kDynamic));
      };
      if (markers(op.getStaticHaloSizes()) == op.getDynamicHaloSizes().size() &&
          markers(op.getStaticShardedDimsOffsets()) ==
              op.getDynamicShardedDimsOffsets().size())
        return;
      op.emitOpError("has a static halo size or sharded-dims offset of "
                     "-9223372036854775808, which MLIR reserves to mark a "
                     "dynamic value, without a dynamic operand for it");
      bad = true;
    });
    if (bad)
      signalPassFailure();
  }
};
} // namespace

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
  // MlirOptMain(argc, argv, input, output, registry), with the guard
  // before the command line's pipeline.
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        nargs, args.data(), inputFilename, output, registry));
  mlir::MlirOptMainConfig cli = config;
  config.setPassPipelineSetupFn([cli](mlir::PassManager &pm) {
    pm.addPass(std::make_unique<GuardUpstream>());
    return cli.setupPassPipeline(pm);
  });
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(out->os(), std::move(file), registry, config)))
    return 1;
  out->keep();
  return 0;
}
