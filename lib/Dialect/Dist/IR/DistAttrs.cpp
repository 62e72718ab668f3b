//===- DistAttrs.cpp - dist dialect attributes ------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Grid levels, DISTAL schedules and statements (layouts are in
// LayoutAttrs.cpp).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// StatementAttr storage
//===----------------------------------------------------------------------===//

namespace mlir::dist::detail {
/// A statement's text and its parse, made once per distinct text. The
/// uniquer runs the destructor when the context goes away.
struct StatementAttrStorage : public AttributeStorage {
  using KeyTy = StringRef;

  explicit StatementAttrStorage(StringRef text) : text(text) {}

  bool operator==(const KeyTy &key) const { return key == text; }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_value(key);
  }

  static StatementAttrStorage *construct(AttributeStorageAllocator &allocator,
                                         const KeyTy &key) {
    auto *storage = new (allocator.allocate<StatementAttrStorage>())
        StatementAttrStorage(allocator.copyInto(key));
    storage->valid = parseIndexStatement(storage->text, storage->statement,
                                         storage->error, storage->column);
    return storage;
  }

  /// The text as written (the key).
  StringRef text;
  /// The parse; empty (no right-hand side) when `valid` is false.
  IndexStatement statement;
  bool valid = false;
  /// Why the text does not parse and the 0-based column.
  std::string error;
  size_t column = 0;
};

/// A schedule's command arrays and their decoding, made once per distinct
/// array.
struct ScheduleAttrStorage : public AttributeStorage {
  using KeyTy = ArrayAttr;

  explicit ScheduleAttrStorage(ArrayAttr commands) : commands(commands) {}

  bool operator==(const KeyTy &key) const { return key == commands; }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_value(key.getAsOpaquePointer());
  }

  static ScheduleAttrStorage *construct(AttributeStorageAllocator &allocator,
                                        const KeyTy &key) {
    auto *storage = new (allocator.allocate<ScheduleAttrStorage>())
        ScheduleAttrStorage(key);
    storage->valid = decodeSchedule(key, storage->decoded, storage->error);
    if (!storage->valid)
      storage->decoded.clear();
    return storage;
  }

  /// The command arrays (the key).
  ArrayAttr commands;
  /// The decoded commands; empty when `valid` is false.
  SmallVector<ScheduleCommand, 0> decoded;
  bool valid = false;
  std::string error;
};
} // namespace mlir::dist::detail

#define GET_ATTRDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistAttrs.cpp.inc"

void DistDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "DistTensor/Dialect/Dist/IR/DistAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// GridLevelAttr
//===----------------------------------------------------------------------===//

LogicalResult
GridLevelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, ProcessorKind kind) {
  if (shape.empty())
    return emitError() << "a grid level needs at least one dimension";
  for (auto [i, extent] : llvm::enumerate(shape))
    if (extent < 1)
      return emitError() << "grid dimension " << i << " has extent " << extent
                         << "; extents must be at least 1";
  return success();
}

//===----------------------------------------------------------------------===//
// StatementAttr
//===----------------------------------------------------------------------===//

StringRef StatementAttr::getText() const { return getImpl()->text; }

const IndexStatement &StatementAttr::getStatement() const {
  return getImpl()->statement;
}

bool StatementAttr::isValid() const { return getImpl()->valid; }

InFlightDiagnostic StatementAttr::emitParseError(
    function_ref<InFlightDiagnostic()> emitError) const {
  return emitError() << "invalid statement \"" << getText() << "\" at column "
                     << getImpl()->column + 1 << ": " << getImpl()->error;
}

StatementAttr
StatementAttr::getChecked(function_ref<InFlightDiagnostic()> emitError,
                          MLIRContext *context, StringRef text) {
  // The storage parses the text when it is made: looking the attribute up
  // parses at most once, and the outcome is kept with it.
  StatementAttr attr = get(context, text);
  if (!attr.isValid()) {
    attr.emitParseError(emitError);
    return {};
  }
  return attr;
}

// #dist.statement<"A(i,j) = B(i,k) * C(k,j)">
Attribute StatementAttr::parse(AsmParser &parser, Type) {
  std::string text;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&text) || parser.parseGreater())
    return {};
  return getChecked([&]() { return parser.emitError(loc); },
                    parser.getContext(), text);
}

void StatementAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getText());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

// Commands are stored as arrays [name, arg...]; args are StringAttr (an
// index variable, tensor or kernel name), ArrayAttr of StringAttr ({a, b}),
// IntegerAttr (a factor), DenseI64ArrayAttr (Grid(..)), FlatSymbolRefAttr.

static void printScheduleArg(llvm::raw_ostream &os, Attribute arg) {
  if (auto s = dyn_cast<StringAttr>(arg)) {
    os << s.getValue();
  } else if (auto list = dyn_cast<ArrayAttr>(arg)) {
    os << "{";
    llvm::interleaveComma(list, os, [&](Attribute a) {
      os << cast<StringAttr>(a).getValue();
    });
    os << "}";
  } else if (auto i = dyn_cast<IntegerAttr>(arg)) {
    os << i.getInt();
  } else if (auto g = dyn_cast<DenseI64ArrayAttr>(arg)) {
    os << "Grid(";
    llvm::interleaveComma(g.asArrayRef(), os);
    os << ")";
  } else if (auto sym = dyn_cast<FlatSymbolRefAttr>(arg)) {
    os << "@" << sym.getValue();
  }
}

ArrayAttr ScheduleAttr::getCommands() const { return getImpl()->commands; }

ArrayRef<ScheduleCommand> ScheduleAttr::getDecoded() const {
  return getImpl()->decoded;
}

bool ScheduleAttr::isValid() const { return getImpl()->valid; }

StringRef ScheduleAttr::getDecodeError() const { return getImpl()->error; }

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printScheduleBody(printer, *this);
  printer << ">";
}

static const llvm::StringSet<> &scheduleCommandNames() {
  static const llvm::StringSet<> names = {
      "divide",      "split",      "reorder",     "collapse",
      "fuse",        "pos",        "distribute",  "communicate",
      "rotate",      "parallelize", "substitute", "overlap",
      "stationary",  "prefetch",   "offset"};
  return names;
}

/// Parses one argument: name, {names}, integer, Grid(ints) or @sym.
static ParseResult parseScheduleArg(AsmParser &parser,
                                    SmallVectorImpl<Attribute> &args) {
  MLIRContext *ctx = parser.getContext();
  if (succeeded(parser.parseOptionalLBrace())) {
    SmallVector<Attribute> names;
    if (failed(parser.parseOptionalRBrace())) {
      if (parser.parseCommaSeparatedList([&]() -> ParseResult {
            StringRef name;
            if (parser.parseKeyword(&name))
              return failure();
            names.push_back(StringAttr::get(ctx, name));
            return success();
          }) ||
          parser.parseRBrace())
        return failure();
    }
    args.push_back(ArrayAttr::get(ctx, names));
    return success();
  }
  int64_t value;
  OptionalParseResult intResult = parser.parseOptionalInteger(value);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    args.push_back(IntegerAttr::get(IntegerType::get(ctx, 64), value));
    return success();
  }
  StringAttr sym;
  if (succeeded(parser.parseOptionalSymbolName(sym))) {
    args.push_back(FlatSymbolRefAttr::get(sym));
    return success();
  }
  StringRef name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOptionalKeyword(&name))
    return parser.emitError(loc)
           << "expected an index variable, a tensor name, {a list}, an "
              "integer, Grid(...) or @machine";
  if (name == "Grid") {
    SmallVector<int64_t> dims;
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Paren,
            [&]() { return parser.parseInteger(dims.emplace_back()); }))
      return failure();
    args.push_back(DenseI64ArrayAttr::get(ctx, dims));
    return success();
  }
  args.push_back(StringAttr::get(ctx, name));
  return success();
}

/// Parses `[cmd(args), ...]` into an ArrayAttr of commands.
static ArrayAttr parseScheduleCommands(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<Attribute> commands;
  auto parseCommand = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    if (std::string why = unsupportedScheduleCommand(name); !why.empty())
      return parser.emitError(loc) << why;
    if (!scheduleCommandNames().contains(name))
      return parser.emitError(loc)
             << "unknown scheduling command '" << name
             << "'; expected divide, split, reorder, collapse, fuse, pos, "
                "distribute, communicate, rotate, parallelize, substitute, "
                "overlap, stationary, prefetch or offset";
    SmallVector<Attribute> cmd{StringAttr::get(ctx, name)};
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&]() {
          return parseScheduleArg(parser, cmd);
        }))
      return failure();
    commands.push_back(ArrayAttr::get(ctx, cmd));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseCommand))
    return {};
  return ArrayAttr::get(ctx, commands);
}

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  ArrayAttr commands = parseScheduleCommands(parser);
  if (!commands || parser.parseGreater())
    return {};
  return ScheduleAttr::get(parser.getContext(), commands);
}

namespace mlir {
namespace dist {
ScheduleAttr parseScheduleBody(AsmParser &parser) {
  ArrayAttr commands = parseScheduleCommands(parser);
  if (!commands)
    return {};
  return ScheduleAttr::get(parser.getContext(), commands);
}
void printScheduleBody(AsmPrinter &printer, ScheduleAttr schedule) {
  llvm::raw_ostream &os = printer.getStream();
  os << "[";
  llvm::interleaveComma(schedule.getCommands(), os, [&](Attribute c) {
    auto cmd = cast<ArrayAttr>(c);
    os << cast<StringAttr>(cmd[0]).getValue() << "(";
    llvm::interleaveComma(cmd.getValue().drop_front(), os,
                          [&](Attribute a) { printScheduleArg(os, a); });
    os << ")";
  });
  os << "]";
}
} // namespace dist
} // namespace mlir
