//===- DialectPlugin.cpp - the dist dialect as a plugin ---------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The dialect half of DistPlugin.so: `mlir-opt --load-dialect-plugin=` adds
// the dist dialect to the tool's registry, so that dist programs parse and
// print. The passes come with --load-pass-plugin (PassPlugin.cpp) of the
// same file.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

/// Called once by the loading tool, before it creates any MLIRContext.
/// The dist dialect loads the dialects it depends on (llvm, sparse_tensor,
/// ...) when it is loaded itself, from the tool's own libMLIR.so.
static void registerDistDialects(DialectRegistry *registry) {
  dist::registerAllDistDialects(*registry);
}

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DistDialect", LLVM_VERSION_STRING,
          registerDistDialects};
}
