//===- PassPlugin.cpp - dist's passes as an mlir-opt plugin -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The pass half of DistPlugin.so: `mlir-opt --load-pass-plugin=` registers
// every dist pass and the named pipelines (dist-to-llvm) with the tool's
// pass registry. A plugin's passes are registered while the command line
// is parsed, after mlir-opt made its pass flags: name them in
// --pass-pipeline='builtin.module(dist-to-llvm{...})', not as --dist-to-llvm.
// The input also needs the dialect: --load-dialect-plugin= of the same file.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

/// An MLIR built with assertions stops with "Pass pipeline dist-to-llvm
/// registered multiple times" when a pipeline is registered twice: a tool
/// that loads the plugin twice (the flag given twice) registers once.
static void registerDistPasses() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  dist::registerAllDistPasses();
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DistPasses", LLVM_VERSION_STRING,
          registerDistPasses};
}
