//===- CHeader.cpp - a C header for dist functions compiled as a library --===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// --dist-to-c-header: reads a dist program (the input of dist-opt
// --dist-to-llvm, not its output) and writes the C header of the library
// `dist-run --emit-lib` builds from it (docs/interop.md, "Calling a compiled
// function from C").  For each public function whose arguments are all dense
// !dist.tensor values and which returns nothing it declares
//
//   - the compiled symbol, with MLIR's calling convention for the rank-1
//     memref of each argument's tile (allocated and aligned pointer, offset,
//     size, stride);
//   - the grid extents and each argument's layout descriptor (distrt/abi.h);
//   - NAME_grid(): the function's grid on the current communicator (the one
//     distrt_comm_push made current, else the world), created on the first
//     call per communicator (collective);
//   - NAME_tile_capacity(i) / NAME_tile_size(i): elements to allocate for
//     argument i's tile, and the elements this process holds (row-major over
//     its local index space, at the start of the tile);
//   - dist_NAME(tiles...): calls NAME on the caller's tiles in place
//     (distrt_init_library on the first call when the runtime is not up).
//
// Dynamic extents (`?`, docs/interop.md "Dynamic shapes"): each is an
// int64_t parameter aN_nD (argument N, dimension D) after the tiles, in
// argument then dimension order, of the compiled symbol, of dist_NAME and of
// NAME_tile_capacity / NAME_tile_size; the layouts hold DISTRT_DESC_DYNAMIC
// there, NAME_layout_with fills them in, and NAME_adopts_scalapack takes the
// descriptor's M and N for them.
//
// Functions with other arguments or results are listed in a comment with the
// reason; a module with none to export is an error.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"
#include "DistTensor/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

/// One exported function.
struct Exported {
  func::FuncOp func;
  GridOp grid;
  SmallVector<DistTensorType> args;
  /// The dynamic extents (argument, dimension), in the order of the
  /// compiled function's extent parameters.
  SmallVector<std::pair<size_t, int64_t>> extents;
};

/// The C name of extent parameter (argument i, dimension d).
std::string extentName(size_t i, int64_t d) {
  return "a" + std::to_string(i) + "_n" + std::to_string(d);
}

/// ", int64_t a0_n0, int64_t a0_n1, ..." for the extents of `e`.
std::string extentParams(const Exported &e) {
  std::string s;
  for (auto [i, d] : e.extents)
    s += ", int64_t " + extentName(i, d);
  return s;
}

/// ", a0_n0, a0_n1, ...".
std::string extentArgs(const Exported &e) {
  std::string s;
  for (auto [i, d] : e.extents)
    s += ", " + extentName(i, d);
  return s;
}

const char *cTypeOf(Type t) {
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  if (t.isInteger(32))
    return "int32_t";
  if (t.isInteger(64))
    return "int64_t";
  return nullptr;
}

/// Why `f` cannot be exported, or "" when it can (then `e` is filled).
std::string check(func::FuncOp f, Exported &e) {
  if (f.isPrivate() || f.isExternal())
    return "private or external";
  if (f.getSymName() == "main")
    return "the program's entry point";
  if (f.getNumResults() != 0)
    return "it returns values (a library function writes its results into "
           "tensor arguments)";
  if (f.getNumArguments() == 0)
    return "it has no tensor arguments";
  GridOp grid;
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    auto dt = dyn_cast<DistTensorType>(t);
    if (!dt)
      return "argument " + std::to_string(i) + " is not a !dist.tensor";
    if (dt.isSparse())
      return "argument " + std::to_string(i) +
             " is sparse (only dense tensors have a C interface)";
    if (!cTypeOf(dt.getElementType()))
      return "argument " + std::to_string(i) + " has no C element type";
    if (dt.getLayout().getLevels().size() != 1)
      return "argument " + std::to_string(i) +
             " has a hierarchical layout (run dist-flatten-machines first)";
    auto g = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        f, dt.getLayout().getGrid());
    if (!g || g.getNumLevels() != 1)
      return "argument " + std::to_string(i) +
             " is not on a one-level dist.grid";
    if (grid && g != grid)
      return "its arguments are on different grids";
    grid = g;
    e.args.push_back(dt);
    for (int64_t d = 0; d < dt.getRank(); ++d)
      if (dt.isDynamicDim(d))
        e.extents.push_back({i, d});
  }
  e.func = f;
  e.grid = grid;
  return "";
}

std::string join(ArrayRef<int64_t> v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(v, os);
  return s;
}

/// NAME_layout_with (with dynamic extents), NAME_tile_capacity and
/// NAME_tile_size.
void emitTileHelpers(raw_ostream &os, const Exported &e) {
  StringRef name = func::FuncOp(e.func).getSymName();
  // With dynamic extents: the layout with the call's extents filled in.
  std::string layoutOf = name.str() + "_layout(arg)";
  std::string params = extentParams(e), callArgs = extentArgs(e);
  if (!e.extents.empty()) {
    os << "/* Argument ARG's layout with the extents filled in (in OUT, "
          "room for\n * DISTRT_DESC_MAX_LEN entries); fatal when an extent "
          "is below 1. */\n"
       << "static inline const int64_t *" << name
       << "_layout_with(int arg, int64_t *out" << params << ") {\n"
       << "  switch (arg) {\n";
    for (auto [i, t] : llvm::enumerate(e.args)) {
      if (t.hasStaticShape())
        continue;
      os << "  case " << i << ": {\n    const int64_t ext[] = {";
      bool first = true;
      for (auto [ai, d] : e.extents)
        if (ai == i) {
          os << (first ? "" : ", ") << extentName(ai, d);
          first = false;
        }
      os << "};\n    return distrt_layout_with_extents(" << name << "_layout_"
         << i << ", ext, out, \"" << name << "\", \"argument " << i
         << "\");\n  }\n";
    }
    os << "  default:\n    (void)out;\n";
    for (auto [i, d] : e.extents)
      os << "    (void)" << extentName(i, d) << ";\n";
    os << "    return " << name << "_layout(arg);\n  }\n}\n\n";
    layoutOf = name.str() + "_layout_with(arg, desc" + callArgs + ")";
  }
  std::string descDecl =
      e.extents.empty() ? "" : "  int64_t desc[DISTRT_DESC_MAX_LEN];\n";
  os << "/* Elements to allocate for argument ARG's tile on this process"
     << (e.extents.empty() ? "" : " for these\n * extents") << ". */\n"
     << "static inline int64_t " << name << "_tile_capacity(int arg" << params
     << ") {\n"
     << descDecl << "  return distrt_layout_tile_capacity(" << name
     << "_grid(), " << layoutOf << ");\n}\n\n";
  os << "/* Elements of argument ARG this process holds (the start of the "
        "tile,\n * row-major over the local index space). */\n"
     << "static inline int64_t " << name << "_tile_size(int arg" << params
     << ") {\n"
     << descDecl << "  return distrt_layout_tile_size(" << name << "_grid(), "
     << layoutOf << ");\n}\n\n";
}

/// NAME_adopts_scalapack.
void emitScalapack(raw_ostream &os, const Exported &e,
                   ArrayRef<int64_t> dims) {
  StringRef name = func::FuncOp(e.func).getSymName();
  // ScaLAPACK arrays.
  os << "/* 1 if the ScaLAPACK array DESC on an NPROW x NPCOL BLACS grid (its "
        "processes\n * in row-major order on the current communicator) has "
        "argument ARG's\n * layout (distrt_layout_from_scalapack), so that a "
        "local array whose LLD is\n * its local row count is the argument's "
        "tile in place; else 0. */\n";
  os << "static inline int " << name
     << "_adopts_scalapack(int arg, const int *desc, int nprow, int npcol) "
        "{\n";
  // A ScaLAPACK layout has 12 entries on a 2-D grid: only such arguments
  // can match.
  SmallVector<size_t> candidates;
  for (auto [i, t] : llvm::enumerate(e.args))
    if (dims.size() == 2 && abi::layoutDescriptor(t).size() == 12)
      candidates.push_back(i);
  if (candidates.empty()) {
    os << "  (void)arg;\n  (void)desc;\n  (void)nprow;\n  (void)npcol;\n"
       << "  return 0; /* no argument has a 2-D block-cyclic layout */\n}\n\n";
  } else {
    os << "  int64_t d[DISTRT_DESC_MAX_LEN];\n"
       << "  if (" << name << "_grid_dims[0] != nprow || " << name
       << "_grid_dims[1] != npcol ||\n"
       << "      distrt_layout_from_scalapack(desc, nprow, npcol, d, 0) != 0)"
          "\n    return 0;\n"
       << "  switch (arg) {\n";
    for (size_t i : candidates)
      os << "  case " << i << ":\n";
    // A dynamic extent (DISTRT_DESC_DYNAMIC) takes the descriptor's M or N.
    os << "    for (int i = 0; i < 12; ++i)\n"
       << "      if (" << name << "_layout(arg)[i] != DISTRT_DESC_DYNAMIC &&\n"
       << "          d[i] != " << name << "_layout(arg)[i])\n"
       << "        return 0;\n"
       << "    return 1;\n"
       << "  default:\n    return 0;\n  }\n}\n\n";
  }
}

/// dist_NAME, the wrapper.
void emitWrapper(raw_ostream &os, const Exported &e) {
  StringRef name = func::FuncOp(e.func).getSymName();
  std::string params = extentParams(e), callArgs = extentArgs(e);
  // The wrapper.
  os << "/* Calls " << name << " on the caller's tiles in place (each of "
     << name << "_tile_capacity(i" << (e.extents.empty() ? "" : ", extents...")
     << ")\n * elements).  Collective over the current "
        "communicator. */\n";
  os << "static inline void dist_" << name << "(";
  for (auto [i, t] : llvm::enumerate(e.args))
    os << (i ? ", " : "") << cTypeOf(t.getElementType()) << " *t" << i;
  os << params;
  // A tile's capacity is the largest tile over the grid's processes: a
  // function of the grid's extents and the layout only, the same on every
  // communicator, so it is computed on the first call only. An argument
  // with dynamic extents passes this process's tile size for the call's
  // extents instead (no loop over the processes at every call).
  size_t n = e.args.size();
  bool anyStatic =
      llvm::any_of(e.args, [](DistTensorType t) { return t.hasStaticShape(); });
  os << ") {\n";
  if (anyStatic)
    os << "  static int64_t cap[" << n << "];\n  static int known;\n";
  os << "  distrt_grid *g = " << name << "_grid();\n";
  if (anyStatic) {
    os << "  if (!known) {\n";
    for (size_t i = 0; i < n; ++i)
      if (e.args[i].hasStaticShape())
        os << "    cap[" << i << "] = distrt_layout_tile_capacity(g, " << name
           << "_layout_" << i << ");\n";
    os << "    known = 1;\n  }\n";
  }
  if (!e.extents.empty()) {
    os << "  int64_t size[" << n << "], desc[DISTRT_DESC_MAX_LEN];\n";
    for (size_t i = 0; i < n; ++i)
      os << "  size[" << i << "] = "
         << (e.args[i].hasStaticShape()
                 ? "cap[" + std::to_string(i) + "]"
                 : "distrt_layout_tile_size(g, " + name.str() +
                       "_layout_with(" + std::to_string(i) + ", desc" +
                       callArgs + "))")
         << ";\n";
  }
  const char *sizes = e.extents.empty() ? "cap" : "size";
  os << "  " << name << "(";
  for (size_t i = 0; i < n; ++i)
    os << (i ? ", " : "") << "t" << i << ", t" << i << ", 0, " << sizes << "["
       << i << "], 1";
  os << callArgs << ");\n}\n\n";
}

void emitFunction(raw_ostream &os, Exported e) {
  StringRef name = func::FuncOp(e.func).getSymName();
  std::string sig;
  llvm::raw_string_ostream sigOs(sig);
  sigOs << "@" << name << "(";
  llvm::interleaveComma(e.args, sigOs, [&](DistTensorType t) { sigOs << t; });
  sigOs << ")";
  os << "/*===-- " << sig << " --*/\n\n";
  // The compiled symbol.
  os << "/* The compiled function: per argument, MLIR's rank-1 memref of its "
        "tile\n * (allocated pointer, aligned pointer, offset, size, stride)"
     << (e.extents.empty() ? ""
                           : ",\n * then each dynamic extent (`?`), "
                             "arguments in order, dimensions in order")
     << ". */\n";
  os << "void " << name << "(";
  for (auto [i, t] : llvm::enumerate(e.args)) {
    const char *ct = cTypeOf(t.getElementType());
    os << (i ? ",\n    " : "") << ct << " *, " << ct
       << " *, int64_t, int64_t, int64_t";
  }
  for (auto [i, d] : e.extents)
    os << ",\n    int64_t /* " << extentName(i, d) << ": argument " << i
       << ", dimension " << d << " */";
  os << ");\n\n";
  // Grid and layouts.
  SmallVector<int64_t> dims(e.grid.getShape());
  os << "/* Grid @" << e.grid.getSymName() << ": " << dims.size()
     << (dims.size() == 1 ? " axis" : " axes") << ". */\n";
  os << "static const int64_t " << name << "_grid_dims[" << dims.size()
     << "] = {" << join(dims) << "};\n";
  for (auto [i, t] : llvm::enumerate(e.args)) {
    SmallVector<int64_t> desc = abi::layoutDescriptor(t);
    os << "/* Argument " << i << ": " << t
       << (t.hasStaticShape() ? ""
                              : " (DISTRT_DESC_DYNAMIC: given at call time)")
       << " */\n";
    os << "static const int64_t " << name << "_layout_" << i << "["
       << desc.size() << "] = {" << join(desc) << "};\n";
  }
  os << "\n";
  // Helpers.
  os << "/* The function's grid on the current communicator (collective on "
        "the first\n * call per communicator). */\n";
  os << "static inline distrt_grid *" << name << "_grid(void) {\n"
     << "  static distrt_grid *slot;\n"
     << "  distrt_init_library();\n"
     << "  return ";
  // A machine of nodes, flattened by dist-flatten-machines: the grid ranks
  // its processes node by node, as the compiled function's own grid does.
  auto nodes = e.grid->getAttrOfType<IntegerAttr>(kNodeAxesAttrName);
  if (e.grid.getLevel(0).getKind() == ProcessorKind::gpu)
    os << "distrt_grid_lookup_gpus(&slot, " << dims.size() << ", " << name
       << "_grid_dims, " << (nodes ? nodes.getInt() : 0) << ");\n}\n\n";
  else if (nodes)
    os << "distrt_grid_lookup_nodes(&slot, " << dims.size() << ", " << name
       << "_grid_dims, " << nodes.getInt() << ");\n}\n\n";
  else
    os << "distrt_grid_lookup(&slot, " << dims.size() << ", " << name
       << "_grid_dims);\n}\n\n";
  os << "static inline const int64_t *" << name
     << "_layout(int arg) {\n  switch (arg) {\n";
  for (size_t i = 0; i < e.args.size(); ++i)
    os << "  case " << i << ":\n    return " << name << "_layout_" << i
       << ";\n";
  os << "  default:\n    distrt_fatal(\"" << name
     << "_layout\", \"argument %d: the function has " << e.args.size()
     << " arguments\", arg);\n  }\n}\n\n";
  emitTileHelpers(os, e);
  emitScalapack(os, e, dims);
  emitWrapper(os, e);
}

LogicalResult emitHeader(Operation *op, raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  SmallVector<Exported> exported;
  SmallVector<std::pair<std::string, std::string>> skipped;
  for (auto f : module.getOps<func::FuncOp>()) {
    Exported e;
    std::string why = check(f, e);
    if (why.empty())
      exported.push_back(e);
    else
      skipped.push_back({f.getSymName().str(), why});
  }
  if (exported.empty()) {
    InFlightDiagnostic d = module.emitError(
        "no function to export: a library function is public, returns "
        "nothing and takes dense !dist.tensor arguments on one grid");
    for (auto &[n, why] : skipped)
      d.attachNote() << "@" << n << ": " << why;
    return failure();
  }
  std::string guard = "DIST_LIB_";
  for (char c : exported.front().func.getSymName())
    guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  guard += "_H";
  os << "/* Generated by dist-translate --dist-to-c-header: the C interface "
        "of a dist\n * program compiled as a library (docs/interop.md). "
        "Link with -ldistrt. */\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include <distrt/compiler.h>\n#include <distrt/distrt.h>\n"
        "#include <stdint.h>\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (auto &[n, why] : skipped)
    os << "/* @" << n << " is not exported: " << why << ". */\n";
  if (!skipped.empty())
    os << "\n";
  for (Exported &e : exported)
    emitFunction(os, e);
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
  return success();
}

} // namespace

void registerDistToCHeaderTranslation() {
  TranslateFromMLIRRegistration reg(
      "dist-to-c-header",
      "Write the C header of a dist program compiled as a library "
      "(dist-run --emit-lib): for each public function taking dense "
      "!dist.tensor arguments, its symbol, grid, layouts, tile sizes and a "
      "wrapper that calls it on the caller's tiles",
      emitHeader, [](DialectRegistry &registry) {
        registerAllDialects(registry);
        dist::registerAllDistDialects(registry);
      });
}
