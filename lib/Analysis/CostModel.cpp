//===- CostModel.cpp - the alpha-beta-gamma cost file ---------------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// readCostModel: the cost file of the redistribution planner and the
// one-sided cost model (`--cost-file`, written by benchmarks/calibrate).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Redistribution.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::dist;

/// `alpha.NAME`, `beta.NAME` or `gamma.NAME`, NAME letters, digits and dots.
static bool isRefinedKey(StringRef key) {
  for (StringRef prefix : {"alpha.", "beta.", "gamma."}) {
    StringRef rest = key;
    if (rest.consume_front(prefix))
      return !rest.empty() && !rest.starts_with(".") && !rest.ends_with(".") &&
             llvm::all_of(rest, [](char c) {
               return llvm::isAlnum(c) || c == '.';
             });
  }
  return false;
}

std::string mlir::dist::readCostModel(StringRef path, CostModel &model) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf)
    return "cannot read cost file '" + path.str() +
           "': " + buf.getError().message();
  SmallVector<StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n');
  bool haveAlpha = false, haveBeta = false;
  for (auto [i, raw] : llvm::enumerate(lines)) {
    StringRef line = raw.split('#').first.trim();
    if (line.empty())
      continue;
    auto [key, rest] = line.split(' ');
    rest = rest.trim();
    double v;
    std::string where = path.str() + ":" + std::to_string(i + 1) + ": ";
    if (rest.getAsDouble(v) || !(v >= 0) || v > 1.0)
      return where + "expected '" + key.str() +
             " <seconds>' with a number in [0, 1], got '" + line.str() + "'";
    if (key == "alpha") {
      model.alpha = v;
      haveAlpha = true;
    } else if (key == "beta") {
      model.beta = v;
      haveBeta = true;
    } else if (key == "gamma") {
      model.gamma = v;
    } else if (isRefinedKey(key)) {
      if (!model.keys.try_emplace(key, v).second)
        return where + "key '" + key.str() + "' is set twice";
    } else {
      return where + "unknown key '" + key.str() +
             "' (expected alpha, beta or gamma, or one of them followed by "
             "'.' and a name, e.g. alpha.allgather or gamma.gemm.128)";
    }
  }
  if (!haveAlpha || !haveBeta)
    return "cost file '" + path.str() + "' must set both alpha and beta";
  return "";
}
