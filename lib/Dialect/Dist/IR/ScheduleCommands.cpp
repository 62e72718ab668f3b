//===- ScheduleCommands.cpp - DISTAL scheduling commands --------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Decodes the command arrays of a #dist.schedule into ScheduleCommands and
// prints a command back as written (for messages). Schedule.cpp applies
// them.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

std::string ScheduleCommand::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto list = [&](ArrayRef<std::string> l) {
    os << "{";
    llvm::interleaveComma(l, os);
    os << "}";
  };
  auto one = [&](unsigned i) { os << lists[i].front(); };
  switch (kind) {
  case Kind::Divide:
  case Kind::Split:
    os << (kind == Kind::Divide ? "divide(" : "split(");
    one(0), os << ", ", one(1), os << ", ", one(2);
    os << ", " << factor << ")";
    break;
  case Kind::Reorder:
    os << "reorder(", list(lists[0]), os << ")";
    break;
  case Kind::Collapse:
    os << "collapse(", one(0), os << ", ", one(1), os << ", ", one(2);
    os << ")";
    break;
  case Kind::Pos:
    os << "pos(", one(0), os << ", ", one(1), os << ", ", one(2);
    os << ")";
    break;
  case Kind::Distribute:
    os << "distribute(";
    if (lists[0].size() == 1)
      one(0);
    else
      list(lists[0]);
    os << ")";
    break;
  case Kind::DistributeOnto:
    os << "distribute(", list(lists[0]), os << ", ", list(lists[1]);
    os << ", ", list(lists[2]), os << ", ";
    if (!machine.empty()) {
      os << "@" << machine;
    } else {
      os << "Grid(";
      llvm::interleaveComma(gridShape, os);
      os << ")";
    }
    os << ")";
    break;
  case Kind::Communicate:
    os << "communicate(";
    if (lists[0].size() == 1)
      one(0);
    else
      list(lists[0]);
    os << ", ", one(1), os << ")";
    break;
  case Kind::Rotate:
    os << "rotate(", one(0), os << ", ", list(lists[1]), os << ", ", one(2);
    os << ")";
    break;
  case Kind::Parallelize:
    os << "parallelize(", one(0), os << ")";
    break;
  case Kind::Substitute:
    os << "substitute(", list(lists[0]), os << ", " << kernel << ")";
    break;
  case Kind::Overlap:
    os << "overlap(", one(0), os << ")";
    break;
  case Kind::Stationary:
    os << "stationary(", one(0), os << ")";
    break;
  case Kind::Prefetch:
    os << "prefetch(" << factor << ")";
    break;
  case Kind::Offset:
    os << "offset(", one(0), os << ")";
    break;
  }
  return s;
}

namespace {
/// Reads argument `i` of a command array as a single name.
bool argName(ArrayAttr cmd, unsigned i, SmallVectorImpl<std::string> &out) {
  if (i >= cmd.size())
    return false;
  if (auto s = dyn_cast<StringAttr>(cmd[i])) {
    out.push_back(s.getValue().str());
    return true;
  }
  return false;
}
/// Reads argument `i` as a name or a {list} of names.
bool argNames(ArrayAttr cmd, unsigned i, SmallVectorImpl<std::string> &out) {
  if (i >= cmd.size())
    return false;
  if (auto list = dyn_cast<ArrayAttr>(cmd[i])) {
    for (Attribute a : list) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s)
        return false;
      out.push_back(s.getValue().str());
    }
    return true;
  }
  return argName(cmd, i, out);
}
bool argList(ArrayAttr cmd, unsigned i, SmallVectorImpl<std::string> &out) {
  return i < cmd.size() && isa<ArrayAttr>(cmd[i]) && argNames(cmd, i, out);
}
bool argInt(ArrayAttr cmd, unsigned i, int64_t &out) {
  if (i >= cmd.size())
    return false;
  if (auto v = dyn_cast<IntegerAttr>(cmd[i])) {
    out = v.getInt();
    return true;
  }
  return false;
}
} // namespace

std::string mlir::dist::unsupportedScheduleCommand(StringRef name) {
  if (name == "precompute")
    return "precompute is not supported yet: a computation has no "
           "temporaries of its own (DISTAL's precompute stages a "
           "sub-expression in a workspace whose layout the schedule would "
           "have to give); write the temporary as its own dist.compute with "
           "its own distribution and use its result in this statement";
  return "";
}

bool mlir::dist::decodeSchedule(ArrayAttr schedule,
                                SmallVectorImpl<ScheduleCommand> &commands,
                                std::string &error) {
  if (!schedule)
    return true;
  for (auto [pos, attr] : llvm::enumerate(schedule)) {
    auto cmd = dyn_cast<ArrayAttr>(attr);
    if (!cmd || cmd.empty() || !isa<StringAttr>(cmd[0])) {
      error = "schedule command " + std::to_string(pos) + " is malformed";
      return false;
    }
    StringRef name = cast<StringAttr>(cmd[0]).getValue();
    unsigned nargs = cmd.size() - 1;
    ScheduleCommand c;
    c.position = pos;
    auto bad = [&](StringRef usage) {
      error = (name + " takes " + usage).str();
      return false;
    };
    auto lists = [&](unsigned n) {
      c.lists.resize(n);
      return true;
    };
    if (name == "divide" || name == "split") {
      c.kind = name == "divide" ? ScheduleCommand::Kind::Divide
                                : ScheduleCommand::Kind::Split;
      lists(3);
      if (nargs != 4 || !argName(cmd, 1, c.lists[0]) ||
          !argName(cmd, 2, c.lists[1]) || !argName(cmd, 3, c.lists[2]) ||
          !argInt(cmd, 4, c.factor))
        return bad("(var, outer, inner, integer)");
    } else if (name == "reorder") {
      c.kind = ScheduleCommand::Kind::Reorder;
      lists(1);
      if (nargs != 1 || !argList(cmd, 1, c.lists[0]))
        return bad("({vars})");
    } else if (name == "collapse" || name == "fuse") {
      c.kind = ScheduleCommand::Kind::Collapse;
      lists(3);
      if (nargs != 3 || !argName(cmd, 1, c.lists[0]) ||
          !argName(cmd, 2, c.lists[1]) || !argName(cmd, 3, c.lists[2]))
        return bad("(outer, inner, fused)");
    } else if (name == "pos") {
      c.kind = ScheduleCommand::Kind::Pos;
      lists(3);
      if (nargs != 3 || !argName(cmd, 1, c.lists[0]) ||
          !argName(cmd, 2, c.lists[1]) || !argName(cmd, 3, c.lists[2]))
        return bad("(var, position var, sparse tensor)");
    } else if (name == "distribute" && nargs == 1) {
      c.kind = ScheduleCommand::Kind::Distribute;
      lists(1);
      if (!argNames(cmd, 1, c.lists[0]))
        return bad("(var), ({vars}) or ({targets}, {dist}, {local}, Grid(..))");
    } else if (name == "distribute") {
      c.kind = ScheduleCommand::Kind::DistributeOnto;
      lists(3);
      if (nargs != 4 || !argList(cmd, 1, c.lists[0]) ||
          !argList(cmd, 2, c.lists[1]) || !argList(cmd, 3, c.lists[2]))
        return bad("(var), ({vars}) or ({targets}, {dist}, {local}, Grid(..))");
      if (auto g = dyn_cast<DenseI64ArrayAttr>(cmd[4])) {
        llvm::append_range(c.gridShape, g.asArrayRef());
      } else if (auto sym = dyn_cast<FlatSymbolRefAttr>(cmd[4])) {
        c.machine = sym.getValue().str();
      } else {
        return bad("a Grid(..) or @machine as its last argument");
      }
    } else if (name == "communicate") {
      c.kind = ScheduleCommand::Kind::Communicate;
      lists(2);
      if (nargs != 2 || !argNames(cmd, 1, c.lists[0]) ||
          !argName(cmd, 2, c.lists[1]))
        return bad("(tensor or {tensors}, var)");
    } else if (name == "rotate") {
      c.kind = ScheduleCommand::Kind::Rotate;
      lists(3);
      if (nargs != 3 || !argName(cmd, 1, c.lists[0]) ||
          !argList(cmd, 2, c.lists[1]) || !argName(cmd, 3, c.lists[2]))
        return bad("(target, {vars}, result)");
    } else if (name == "parallelize") {
      c.kind = ScheduleCommand::Kind::Parallelize;
      lists(1);
      if (nargs != 1 || !argName(cmd, 1, c.lists[0]))
        return bad("(var)");
    } else if (name == "substitute") {
      c.kind = ScheduleCommand::Kind::Substitute;
      lists(1);
      SmallVector<std::string> kernel;
      if (nargs != 2 || !argList(cmd, 1, c.lists[0]) ||
          !argName(cmd, 2, kernel))
        return bad("({vars}, kernel)");
      c.kernel = kernel.front();
    } else if (name == "overlap") {
      c.kind = ScheduleCommand::Kind::Overlap;
      lists(1);
      if (nargs != 1 || !argName(cmd, 1, c.lists[0]) ||
          (c.lists[0][0] != "on" && c.lists[0][0] != "off"))
        return bad("(on) or (off)");
    } else if (name == "stationary") {
      c.kind = ScheduleCommand::Kind::Stationary;
      lists(1);
      if (nargs != 1 || !argName(cmd, 1, c.lists[0]))
        return bad("(tensor) or (auto)");
    } else if (name == "prefetch") {
      c.kind = ScheduleCommand::Kind::Prefetch;
      lists(0);
      if (nargs != 1 || !argInt(cmd, 1, c.factor))
        return bad("(depth), a positive integer");
    } else if (name == "offset") {
      c.kind = ScheduleCommand::Kind::Offset;
      lists(1);
      if (nargs != 1 || !argName(cmd, 1, c.lists[0]) ||
          (c.lists[0][0] != "on" && c.lists[0][0] != "off"))
        return bad("(on) or (off)");
    } else if (std::string why = unsupportedScheduleCommand(name);
               !why.empty()) {
      error = why;
      return false;
    } else {
      error = ("unknown scheduling command '" + name + "'").str();
      return false;
    }
    commands.push_back(std::move(c));
  }
  return true;
}
