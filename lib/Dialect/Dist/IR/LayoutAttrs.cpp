//===- LayoutAttrs.cpp - dist dialect layout attributes ---------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Layouts in their three spellings (DISTAL's tensor distribution notation,
// the thesis' mode tuples, the canonical form): #dist.dim,
// #dist.level_layout and #dist.layout, their checks and their syntax.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dist;

int64_t mlir::dist::productOfAxes(ArrayRef<int64_t> gridShape,
                                  ArrayRef<int64_t> axes) {
  int64_t p = 1;
  for (int64_t a : axes)
    if (a >= 0 && a < (int64_t)gridShape.size())
      p *= gridShape[a];
  return p;
}

//===----------------------------------------------------------------------===//
// DimDistAttr / LevelLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult DimDistAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> axes, PartitionKind kind,
                                  int64_t block, ArrayRef<int64_t> skew) {
  if (axes.empty() != (kind == PartitionKind::none))
    return emitError() << "a tensor dimension is partitioned (kind other "
                          "than none) exactly when it names mesh modes";
  if (kind == PartitionKind::block_cyclic && block < 1)
    return emitError() << "block_cyclic needs a block size of at least 1, got "
                       << block;
  if (kind != PartitionKind::block_cyclic && block != 0)
    return emitError() << "only block_cyclic takes a block size";
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t a : axes) {
    if (a < 0)
      return emitError() << "mesh mode " << a << " is negative";
    if (!seen.insert(a).second)
      return emitError() << "mesh mode " << a
                         << " appears twice in one tuple";
  }
  if (!skew.empty() && kind == PartitionKind::none)
    return emitError() << "only a partitioned dimension can be skewed";
  llvm::SmallSet<int64_t, 4> skewSeen;
  for (int64_t s : skew) {
    if (s < 0)
      return emitError() << "skew mesh mode " << s << " is negative";
    if (seen.contains(s))
      return emitError() << "mesh mode " << s
                         << " both partitions the dimension and skews it";
    if (!skewSeen.insert(s).second)
      return emitError() << "skew mesh mode " << s << " is listed twice";
  }
  return success();
}

/// Owners of a skewed dimension depend on the skew modes' coordinates; to
/// keep the owner of an element a closed form, those coordinates must not
/// themselves belong to a skewed dimension.
static std::optional<std::string> skewChainError(ArrayRef<DimDistAttr> dims) {
  for (auto [d, dim] : llvm::enumerate(dims))
    for (int64_t s : dim.getSkew())
      for (auto [e, other] : llvm::enumerate(dims))
        if (!other.getSkew().empty() && llvm::is_contained(other.getAxes(), s))
          return "tensor dimension " + std::to_string(d) +
                 " is skewed by mesh mode " + std::to_string(s) +
                 ", which partitions tensor dimension " + std::to_string(e) +
                 ", itself skewed; skews cannot chain";
  return std::nullopt;
}

LogicalResult
LevelLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<DimDistAttr> dims,
                        ArrayRef<int64_t> fixedAxes,
                        ArrayRef<int64_t> fixedCoords) {
  if (fixedAxes.size() != fixedCoords.size())
    return emitError() << "every fixed mesh mode needs one coordinate";
  llvm::SmallSet<int64_t, 8> used;
  for (auto [d, dim] : llvm::enumerate(dims)) {
    if (!dim)
      return emitError() << "missing distribution for tensor dimension " << d;
    for (int64_t a : dim.getAxes())
      if (!used.insert(a).second)
        return emitError() << "mesh mode " << a
                           << " is used by more than one tensor dimension";
  }
  if (std::optional<std::string> error = skewChainError(dims))
    return emitError() << *error;
  for (auto [i, a] : llvm::enumerate(fixedAxes)) {
    if (a < 0)
      return emitError() << "fixed mesh mode " << a << " is negative";
    if (i > 0 && fixedAxes[i - 1] >= a)
      return emitError() << "fixed mesh modes must be sorted and distinct";
    if (used.contains(a))
      return emitError() << "mesh mode " << a
                         << " both partitions the tensor and is fixed";
    if (fixedCoords[i] < 0)
      return emitError() << "fixed coordinate " << fixedCoords[i]
                         << " on mesh mode " << a << " is negative";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Layout spellings: DISTAL's tensor distribution notation
//===----------------------------------------------------------------------===//

static DimDistAttr makeDim(MLIRContext *ctx, ArrayRef<int64_t> axes,
                           PartitionKind kind, int64_t block,
                           ArrayRef<int64_t> skew = {}) {
  if (axes.empty())
    return DimDistAttr::get(ctx, {}, PartitionKind::none, 0);
  if (kind != PartitionKind::block_cyclic)
    block = 0;
  return DimDistAttr::get(ctx, axes, kind, block, skew);
}

/// Builds a level from per-dimension axes and (axis, coord) pairs, sorting
/// the fixed modes. Reports errors through `error`.
static LevelLayoutAttr
makeLevel(MLIRContext *ctx, ArrayRef<SmallVector<int64_t>> dimAxes,
          ArrayRef<PartitionKind> kinds, ArrayRef<int64_t> blocks,
          SmallVector<std::pair<int64_t, int64_t>> fixed, std::string &error,
          ArrayRef<SmallVector<int64_t>> skews = {}) {
  SmallVector<DimDistAttr> dims;
  llvm::SmallSet<int64_t, 8> used;
  for (auto [d, axes] : llvm::enumerate(dimAxes)) {
    for (int64_t a : axes) {
      if (!used.insert(a).second) {
        error = "mesh mode " + std::to_string(a) +
                " is used more than once (a mesh mode may partition at most "
                "one tensor dimension, once)";
        return {};
      }
    }
    ArrayRef<int64_t> skew;
    if (d < skews.size())
      skew = skews[d];
    for (auto [i, sk] : llvm::enumerate(skew)) {
      if (llvm::is_contained(axes, sk)) {
        error = "mesh mode " + std::to_string(sk) +
                " both partitions tensor dimension " + std::to_string(d) +
                " and skews it";
        return {};
      }
      if (llvm::is_contained(skew.take_front(i), sk)) {
        error = "skew mesh mode " + std::to_string(sk) + " is listed twice";
        return {};
      }
    }
    dims.push_back(makeDim(ctx, axes, kinds[d], blocks[d], skew));
  }
  llvm::sort(fixed);
  SmallVector<int64_t> fAxes, fCoords;
  for (auto [a, c] : fixed) {
    if (!fAxes.empty() && fAxes.back() == a) {
      error = "mesh mode " + std::to_string(a) + " is fixed twice";
      return {};
    }
    if (used.contains(a)) {
      error = "mesh mode " + std::to_string(a) +
              " both partitions the tensor and is fixed";
      return {};
    }
    fAxes.push_back(a);
    fCoords.push_back(c);
  }
  if (std::optional<std::string> chain = skewChainError(dims)) {
    error = *chain;
    return {};
  }
  return LevelLayoutAttr::get(ctx, dims, fAxes, fCoords);
}

LevelLayoutAttr mlir::dist::parseTDN(MLIRContext *ctx, StringRef text,
                                     PartitionKind kind, int64_t block,
                                     std::string &error) {
  size_t arrow = text.find("->");
  if (arrow == StringRef::npos) {
    error = "expected tensor distribution notation 'X -> Y' (e.g. "
            "\"xy -> xy0\"), with '->' between the tensor's and the "
            "machine's dimension names";
    return {};
  }
  auto strip = [](StringRef s) {
    std::string out;
    for (char c : s)
      if (!isspace(static_cast<unsigned char>(c)))
        out.push_back(c);
    return out;
  };
  std::string lhs = strip(text.substr(0, arrow));
  std::string rhs = strip(text.substr(arrow + 2));
  // Tensor dimension names: letters, no duplicates.
  llvm::StringMap<int64_t> tensorDim;
  for (auto [d, c] : llvm::enumerate(lhs)) {
    if (!isalpha(static_cast<unsigned char>(c))) {
      error = std::string("tensor dimension names are letters; got '") + c +
              "' on the left of '->'";
      return {};
    }
    if (!tensorDim.try_emplace(std::string(1, c), (int64_t)d).second) {
      error = std::string("tensor dimension '") + c +
              "' is named twice on the left of '->'";
      return {};
    }
  }
  if (rhs.empty()) {
    error = "no machine dimensions on the right of '->'";
    return {};
  }
  SmallVector<SmallVector<int64_t>> dimAxes(lhs.size());
  SmallVector<PartitionKind> kinds(lhs.size(), kind);
  SmallVector<std::pair<int64_t, int64_t>> fixed;
  llvm::StringSet<> seenMachine;
  // A letter followed by '~' partitions that dimension by its stored
  // entries (SpDISTAL's non-zero partition); '~' is not a machine dimension.
  std::string machineDims;
  for (auto [i, c] : llvm::enumerate(rhs)) {
    if (c != '~') {
      machineDims.push_back(c);
      continue;
    }
    if (i == 0 || !isalpha(static_cast<unsigned char>(rhs[i - 1]))) {
      error = "'~' (a non-zero partition) must follow a tensor dimension "
              "name on the right of '->', as in \"xy -> x~\"";
      return {};
    }
    auto it = tensorDim.find(std::string(1, rhs[i - 1]));
    if (it != tensorDim.end()) {
      if (kind != PartitionKind::blocked) {
        error = "'~' (a non-zero partition) takes no other partition kind";
        return {};
      }
      kinds[it->second] = PartitionKind::nonzeros;
    }
  }
  for (auto [m, c] : llvm::enumerate(machineDims)) {
    if (c == '*')
      continue; // broadcast: replicated over this machine dimension
    if (isdigit(static_cast<unsigned char>(c))) {
      fixed.push_back({(int64_t)m, (int64_t)(c - '0')});
      continue;
    }
    if (!isalpha(static_cast<unsigned char>(c))) {
      error = std::string("machine dimension '") + c +
              "' is neither a tensor dimension name, a digit (fixed "
              "coordinate) nor '*' (broadcast)";
      return {};
    }
    std::string name(1, c);
    if (!seenMachine.insert(name).second) {
      error = "machine dimension name '" + name +
              "' is repeated on the right of '->'";
      return {};
    }
    auto it = tensorDim.find(name);
    if (it == tensorDim.end()) {
      error = "machine dimension '" + name +
              "' names no tensor dimension (every name on the right of '->' "
              "must appear on the left)";
      return {};
    }
    dimAxes[it->second].push_back((int64_t)m);
  }
  SmallVector<int64_t> blocks(lhs.size(), block);
  return makeLevel(ctx, dimAxes, kinds, blocks, fixed, error);
}

//===----------------------------------------------------------------------===//
// Layout spellings: the thesis' mode tuples
//===----------------------------------------------------------------------===//

namespace {
/// A tiny cursor over a string for the mode-tuple notation.
struct Cursor {
  StringRef s;
  size_t pos = 0;
  void skip() {
    while (pos < s.size() && isspace(static_cast<unsigned char>(s[pos])))
      ++pos;
  }
  bool eat(char c) {
    skip();
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    skip();
    return pos < s.size() && s[pos] == c;
  }
  bool integer(int64_t &v) {
    skip();
    size_t start = pos;
    while (pos < s.size() && isdigit(static_cast<unsigned char>(s[pos])))
      ++pos;
    if (start == pos || pos - start > 15)
      return false;
    v = std::stoll(s.substr(start, pos - start).str());
    return true;
  }
  bool atEnd() {
    skip();
    return pos == s.size();
  }
};

/// Parses "(a, b, ...)" (possibly empty) into `axes`.
bool parseTuple(Cursor &c, SmallVectorImpl<int64_t> &axes,
                std::string &error) {
  if (!c.eat('(')) {
    error = "expected '(' to start a tuple of mesh modes at column " +
            std::to_string(c.pos);
    return false;
  }
  if (c.eat(')'))
    return true;
  do {
    int64_t v;
    if (!c.integer(v)) {
      error = "expected a mesh mode (a non-negative integer) at column " +
              std::to_string(c.pos);
      return false;
    }
    axes.push_back(v);
  } while (c.eat(','));
  if (!c.eat(')')) {
    error = "expected ')' to close a tuple of mesh modes at column " +
            std::to_string(c.pos);
    return false;
  }
  return true;
}
} // namespace

LevelLayoutAttr mlir::dist::parseModeTuples(MLIRContext *ctx, StringRef text,
                                            std::string &error) {
  Cursor c{text};
  if (!c.eat('[')) {
    error = "mode-tuple notation starts with '['";
    return {};
  }
  SmallVector<SmallVector<int64_t>> dimAxes;
  if (!c.peek(']') && !c.peek(';')) {
    do {
      if (!parseTuple(c, dimAxes.emplace_back(), error))
        return {};
    } while (c.eat(','));
  }
  SmallVector<int64_t> holders;
  int64_t w = 0;
  bool nonReplicated = false;
  if (c.eat(';')) {
    // [D; E, w]
    nonReplicated = true;
    if (!parseTuple(c, holders, error))
      return {};
    if (!c.eat(',') || !c.integer(w)) {
      error = "expected ', w' (the holder's linear index) after the holder "
              "modes in [D; E, w]";
      return {};
    }
  }
  if (!c.eat(']')) {
    error = "expected ']' at column " + std::to_string(c.pos);
    return {};
  }
  if (!nonReplicated && c.eat('|')) {
    // "[(0),(1,2)]|(3)" = [(0),(1,2); (3), 0]
    nonReplicated = true;
    if (!parseTuple(c, holders, error))
      return {};
  }
  if (!c.atEnd()) {
    error = "unexpected text after the layout at column " +
            std::to_string(c.pos);
    return {};
  }
  SmallVector<std::pair<int64_t, int64_t>> fixed;
  if (nonReplicated) {
    if (holders.empty()) {
      error = "the non-replicated form needs at least one holder mode";
      return {};
    }
    if (holders.size() > 1 && w != 0) {
      error = "a holder index w other than 0 over several modes needs the "
              "grid extents; write one coordinate per mode in the canonical "
              "form '| (mode = coord, ...)'";
      return {};
    }
    for (int64_t a : holders)
      fixed.push_back({a, holders.size() == 1 ? w : 0});
  }
  SmallVector<PartitionKind> kinds(dimAxes.size(), PartitionKind::cyclic);
  SmallVector<int64_t> blocks(dimAxes.size(), 0);
  return makeLevel(ctx, dimAxes, kinds, blocks, fixed, error);
}

//===----------------------------------------------------------------------===//
// LayoutAttr: canonical form, parser and printer
//===----------------------------------------------------------------------===//

static void printKind(llvm::raw_ostream &os, DimDistAttr dim) {
  switch (dim.getKind()) {
  case PartitionKind::none:
  case PartitionKind::cyclic:
    return;
  case PartitionKind::blocked:
    os << " blocked";
    return;
  case PartitionKind::block_cyclic:
    os << " block_cyclic(" << dim.getBlock() << ")";
    return;
  case PartitionKind::nonzeros:
    os << " nonzeros";
    return;
  }
}

void mlir::dist::printLayoutLevels(llvm::raw_ostream &os,
                                   ArrayRef<LevelLayoutAttr> levels) {
  llvm::interleaveComma(levels, os, [&](LevelLayoutAttr level) {
    os << "[";
    llvm::interleaveComma(level.getDims(), os, [&](DimDistAttr dim) {
      os << "(";
      llvm::interleaveComma(dim.getAxes(), os);
      os << ")";
      printKind(os, dim);
      if (!dim.getSkew().empty()) {
        os << " skew(";
        llvm::interleaveComma(dim.getSkew(), os);
        os << ")";
      }
    });
    os << "]";
    if (!level.getFixedAxes().empty()) {
      os << " | (";
      llvm::interleaveComma(
          llvm::zip(level.getFixedAxes(), level.getFixedCoords()), os,
          [&](auto pair) {
            os << std::get<0>(pair) << " = " << std::get<1>(pair);
          });
      os << ")";
    }
  });
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printAttributeWithoutType(getGrid());
  printer << ", ";
  printLayoutLevels(printer.getStream(), getLevels());
  printer << ">";
}

/// kind ::= `blocked` | `cyclic` | `block_cyclic` `(` int `)` | `nonzeros`
static OptionalParseResult parseOptionalKind(AsmParser &parser,
                                             PartitionKind &kind,
                                             int64_t &block) {
  StringRef kw;
  if (failed(parser.parseOptionalKeyword(
          &kw, {"blocked", "cyclic", "block_cyclic", "nonzeros"})))
    return std::nullopt;
  block = 0;
  if (kw == "blocked") {
    kind = PartitionKind::blocked;
  } else if (kw == "cyclic") {
    kind = PartitionKind::cyclic;
  } else if (kw == "nonzeros") {
    kind = PartitionKind::nonzeros;
  } else {
    kind = PartitionKind::block_cyclic;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseInteger(block) ||
        parser.parseRParen())
      return failure();
    if (block < 1)
      return parser.emitError(loc) << "block_cyclic needs a block size of at "
                                      "least 1, got "
                                   << block;
  }
  return success();
}

static LevelLayoutAttr parseCanonicalLevel(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<SmallVector<int64_t>> dimAxes;
  SmallVector<PartitionKind> kinds;
  SmallVector<int64_t> blocks;
  SmallVector<SmallVector<int64_t>> skews;
  auto parseDim = [&]() -> ParseResult {
    SmallVector<int64_t> &axes = dimAxes.emplace_back();
    if (parser.parseLParen())
      return failure();
    if (failed(parser.parseOptionalRParen())) {
      if (parser.parseCommaSeparatedList([&]() {
            return parser.parseInteger(axes.emplace_back());
          }) ||
          parser.parseRParen())
        return failure();
    }
    PartitionKind kind = PartitionKind::cyclic;
    int64_t block = 0;
    OptionalParseResult k = parseOptionalKind(parser, kind, block);
    if (k.has_value() && failed(*k))
      return failure();
    if (axes.empty() && k.has_value())
      return parser.emitError(parser.getCurrentLocation())
             << "a dimension with no mesh modes '()' is not partitioned and "
                "takes no partition kind";
    kinds.push_back(kind);
    blocks.push_back(block);
    SmallVector<int64_t> &skew = skews.emplace_back();
    if (succeeded(parser.parseOptionalKeyword("skew"))) {
      if (axes.empty())
        return parser.emitError(parser.getCurrentLocation())
               << "a dimension with no mesh modes '()' cannot be skewed";
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Paren,
              [&]() { return parser.parseInteger(skew.emplace_back()); }))
        return failure();
      for (int64_t s : skew)
        if (s < 0)
          return parser.emitError(parser.getCurrentLocation())
                 << "skew mesh mode " << s << " is negative";
    }
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim))
    return {};
  SmallVector<std::pair<int64_t, int64_t>> fixed;
  if (succeeded(parser.parseOptionalVerticalBar())) {
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Paren, [&]() -> ParseResult {
              int64_t a, c;
              if (parser.parseInteger(a) || parser.parseEqual() ||
                  parser.parseInteger(c))
                return failure();
              fixed.push_back({a, c});
              return success();
            }))
      return {};
  }
  for (auto [a, c] : fixed)
    if (a < 0 || c < 0) {
      parser.emitError(loc) << "fixed mesh modes and coordinates are "
                               "non-negative";
      return {};
    }
  for (const auto &axes : dimAxes)
    for (int64_t a : axes)
      if (a < 0) {
        parser.emitError(loc) << "mesh mode " << a << " is negative";
        return {};
      }
  std::string error;
  LevelLayoutAttr level =
      makeLevel(ctx, dimAxes, kinds, blocks, fixed, error, skews);
  if (!level)
    parser.emitError(loc) << error;
  return level;
}

Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  FlatSymbolRefAttr grid;
  if (parser.parseLess())
    return {};
  SMLoc gridLoc = parser.getCurrentLocation();
  Attribute gridAttr;
  if (parser.parseAttribute(gridAttr))
    return {};
  grid = dyn_cast<FlatSymbolRefAttr>(gridAttr);
  if (!grid) {
    parser.emitError(gridLoc)
        << "a layout starts with the machine it distributes over, e.g. @m";
    return {};
  }
  if (parser.parseComma())
    return {};
  SmallVector<LevelLayoutAttr> levels;
  do {
    SMLoc loc = parser.getCurrentLocation();
    std::string text;
    if (succeeded(parser.parseOptionalString(&text))) {
      std::string error;
      LevelLayoutAttr level;
      if (StringRef(text).ltrim().starts_with("[")) {
        level = parseModeTuples(ctx, text, error);
      } else {
        PartitionKind kind = PartitionKind::blocked;
        int64_t block = 0;
        OptionalParseResult k = parseOptionalKind(parser, kind, block);
        if (k.has_value() && failed(*k))
          return {};
        level = parseTDN(ctx, text, kind, block, error);
      }
      if (!level) {
        parser.emitError(loc) << "invalid layout \"" << text << "\": " << error;
        return {};
      }
      levels.push_back(level);
      continue;
    }
    LevelLayoutAttr level = parseCanonicalLevel(parser);
    if (!level)
      return {};
    levels.push_back(level);
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater())
    return {};
  return LayoutAttr::getChecked(
      [&]() { return parser.emitError(gridLoc); }, ctx, grid,
      ArrayRef<LevelLayoutAttr>(levels));
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 FlatSymbolRefAttr grid,
                                 ArrayRef<LevelLayoutAttr> levels) {
  if (!grid)
    return emitError() << "a layout needs a machine";
  if (levels.empty())
    return emitError() << "a layout needs at least one level";
  for (auto [l, level] : llvm::enumerate(levels)) {
    if (!level)
      return emitError() << "level " << l << " of the layout is missing";
    if (level.getDims().size() != levels.front().getDims().size())
      return emitError() << "level " << l << " describes "
                         << level.getDims().size()
                         << " tensor dimensions but level 0 describes "
                         << levels.front().getDims().size();
  }
  return success();
}

LogicalResult
LayoutAttr::verifyAgainstGrid(function_ref<InFlightDiagnostic()> emitError,
                              Operation *gridOp) const {
  auto grid = dyn_cast_or_null<GridOp>(gridOp);
  if (!grid)
    return emitError() << "layout names '" << getGrid()
                       << "', which is not a dist.grid in scope";
  if (getLevels().size() != grid.getNumLevels())
    return emitError() << "layout has " << getLevels().size()
                       << " level(s) but machine " << getGrid() << " has "
                       << grid.getNumLevels();
  for (auto [l, level] : llvm::enumerate(getLevels())) {
    ArrayRef<int64_t> shape = grid.getLevel(l).getShape();
    int64_t rank = shape.size();
    auto where = [&, l = l]() {
      InFlightDiagnostic d = emitError();
      if (getLevels().size() > 1)
        d << "level " << l << ": ";
      return d;
    };
    for (auto [d, dim] : llvm::enumerate(level.getDims()))
      for (int64_t a : dim.getAxes())
        if (a >= rank)
          return where() << "tensor dimension " << d << " names mesh mode "
                         << a << ", but machine " << getGrid() << " has "
                         << rank << " dimension(s)";
    for (auto [d, dim] : llvm::enumerate(level.getDims()))
      for (int64_t a : dim.getSkew())
        if (a >= rank)
          return where() << "tensor dimension " << d
                         << " is skewed by mesh mode " << a << ", but machine "
                         << getGrid() << " has " << rank << " dimension(s)";
    for (auto [a, c] : llvm::zip(level.getFixedAxes(), level.getFixedCoords())) {
      if (a >= rank)
        return where() << "the layout fixes mesh mode " << a << ", but machine "
                       << getGrid() << " has " << rank << " dimension(s)";
      if (c >= shape[a])
        return where() << "the layout fixes mesh mode " << a
                       << " to coordinate " << c << ", outside its extent "
                       << shape[a];
    }
  }
  return success();
}
