//===- dist-fuzz.cpp - libFuzzer harness for the dist compiler --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// One input = one MLIR source buffer. It is parsed in a fresh context that
// knows the dist dialect and the upstream dialects dist programs use (func,
// arith, memref, scf, llvm), with every upstream extension registered as in
// dist-opt (the ConvertToLLVM interfaces the pipeline needs). Diagnostics are
// captured and dropped. If the module parses and verifies, it is printed
// (custom and generic form) and, by default, re-parsed: a verified module
// whose printed form does not parse again is reported as a bug. Then the
// whole `dist-to-llvm` pipeline runs on it. A pass may fail (that is a
// diagnostic), but it must not crash, hang, trip a sanitizer, or leave IR
// that does not verify: the pass manager's own verifier is replaced by one
// that aborts naming the pass, so that "pass produced invalid IR" is a
// finding too. The pipeline runs with check=true on odd-sized inputs and
// timing=true on inputs whose size is 2 or 3 modulo 4.
//
// Environment (all optional):
//   DIST_FUZZ_ROUNDTRIP=0   skip the print -> parse round trip
//   DIST_FUZZ_PIPELINE=0    parse / verify / print only
//   DIST_FUZZ_VERBOSE=1     print the diagnostics (for reproducing a finding)
//
// Build: cmake -C test/fuzz/fuzz.cmake (see scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"
#include "DistTensor/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace mlir;

namespace {

bool envFlag(const char *name, bool dflt) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return dflt;
  return std::strcmp(v, "0") != 0;
}

struct Settings {
  bool roundTrip = envFlag("DIST_FUZZ_ROUNDTRIP", true);
  bool pipeline = envFlag("DIST_FUZZ_PIPELINE", true);
  bool verbose = envFlag("DIST_FUZZ_VERBOSE", false);
};

const Settings &settings() {
  static const Settings s;
  return s;
}

const DialectRegistry &registry() {
  static const DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    dist::registerAllDistDialects(*reg);
    reg->insert<arith::ArithDialect, func::FuncDialect, LLVM::LLVMDialect,
                memref::MemRefDialect, scf::SCFDialect>();
    registerAllExtensions(*reg);
    return reg;
  }();
  return *r;
}

[[noreturn]] void bug(const char *what, Operation *op, StringRef detail) {
  std::fflush(stdout);
  llvm::errs() << "dist-fuzz: BUG: " << what;
  if (!detail.empty())
    llvm::errs() << ": " << detail;
  llvm::errs() << "\n";
  if (op) {
    llvm::errs() << "dist-fuzz: IR (generic form):\n";
    op->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
    llvm::errs() << "\n";
  }
  llvm::errs().flush();
  std::abort();
}

/// Replaces the pass manager's verifier: after every pass that succeeded, the
/// IR must verify; otherwise the pass produced invalid IR (a compiler bug,
/// even if dist-opt would only report it as an error).
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    // Verify the whole module: a pass on a function can break a symbol use
    // elsewhere.
    Operation *top = op;
    while (Operation *parent = top->getParentOp())
      top = parent;
    if (failed(verify(top)))
      bug("IR does not verify after pass", top, pass->getArgument());
  }
};

void handleDiagnostic(Diagnostic &diag) {
  if (settings().verbose)
    llvm::errs() << diag.getLocation() << ": " << diag << "\n";
}

std::string print(Operation *op, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  op->print(os, flags);
  return text;
}

} // namespace

// LLVM is a release build without ASan, but its headers poison the unused
// part of every BumpPtrAllocator slab when the includer is built with ASan.
// A slab created by inlined (instrumented) code and then bumped by libMLIR
// (uninstrumented, never unpoisons) gives false "use-after-poison" reports:
// ignore manual poisoning. Leaks are left to the fuzzer's -detect_leaks.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

// A UB report is fatal (-fno-sanitize-recover); print where it came from.
extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1";
}

extern "C" int LLVMFuzzerInitialize(int * /*argc*/, char *** /*argv*/) {
  (void)settings();
  (void)registry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Inputs with NUL bytes are not source text dist-opt could be given in a
  // meaningful way, but the parser must cope: keep them.
  std::string text(reinterpret_cast<const char *>(data), size);

  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
    handleDiagnostic(diag);
    return success();
  });

  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  if (failed(verify(*module)))
    return 0;

  // The printers of dist attributes / types / ops, in both forms.
  std::string custom = print(module->getOperation(), /*generic=*/false);
  std::string generic = print(module->getOperation(), /*generic=*/true);
  if (settings().roundTrip) {
    for (const std::string *form : {&custom, &generic}) {
      OwningOpRef<ModuleOp> again = parseSourceString<ModuleOp>(*form, config);
      if (!again)
        bug("printed form of a verified module does not parse", nullptr,
            *form);
      if (failed(verify(*again)))
        bug("printed form of a verified module does not verify", nullptr,
            *form);
    }
  }

  if (!settings().pipeline)
    return 0;
  PassManager pm(&context, ModuleOp::getOperationName());
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  // The pipeline's options select extra code paths in dist-materialize-spmd
  // (reference checks, timers): take them from the input's length so that
  // both settings get explored and a reproducer replays the same way.
  dist::DistToLLVMOptions options;
  options.check = size % 2 == 1;
  options.timing = size % 4 >= 2;
  dist::buildDistToLLVMPipeline(pm, options);
  (void)pm.run(*module); // failing with a diagnostic is fine
  return 0;
}
