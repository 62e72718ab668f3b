//===- InitAll.h - register every dist dialect and pass ---------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The entry points another MLIR compiler uses to embed dist: register the
// dialects into a DialectRegistry and the passes and pipelines with the
// global pass registry (for command-line parsing).
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_INITALL_H
#define DISTTENSOR_INITALL_H

namespace mlir {
class DialectRegistry;
namespace dist {

/// Adds the dist dialect (and the dialects it depends on) to `registry`.
void registerAllDistDialects(DialectRegistry &registry);

/// Registers every dist pass and the named pipelines (`dist-to-llvm`).
void registerAllDistPasses();

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_INITALL_H
