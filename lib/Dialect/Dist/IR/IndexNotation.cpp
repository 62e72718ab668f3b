//===- IndexNotation.cpp - tensor index notation statements -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Grammar:
//   statement ::= access ('=' | '+=') expr
//   expr      ::= term (('+' | '-') term)*
//   term      ::= factor ('*' factor)*
//   factor    ::= '-' factor | number | access | '(' expr ')'
//   access    ::= name ('(' (index (',' index)*)? ')')?
//   number    ::= (digit+ ('.' digit*)? | '.' digit+) ([eE] [+-]? digit+)?
//                 (a finite double; nonzero unless written as zero)
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::dist;

/// How deep a statement's expression may nest: parentheses and negations
/// around any point, and operators (negation included) on any path from
/// the root to a leaf, each at most this many. The parser and every walk of
/// the expression recurse that deep; 50,000 levels overflowed the stack.
static constexpr unsigned kMaxExpressionDepth = 256;

namespace {
class StatementParser {
public:
  StatementParser(llvm::StringRef text, std::string &error, size_t &column)
      : text(text), error(error), column(column) {}

  bool parse(IndexStatement &stmt) {
    if (!parseAccess(stmt.lhs))
      return false;
    skip();
    if (consume("+=")) {
      stmt.accumulate = true;
    } else if (!consume("=")) {
      return fail("expected '=' or '+=' after the left-hand side");
    }
    stmt.rhs = parseExpr();
    if (!stmt.rhs)
      return false;
    skip();
    if (pos != text.size())
      return fail("unexpected '" + std::string(1, text[pos]) +
                  "' after the end of the statement");
    return true;
  }

private:
  llvm::StringRef text;
  std::string &error;
  size_t &column;
  size_t pos = 0;
  /// Parentheses and negations open around the current position (the
  /// parser recurses once for each).
  unsigned nesting = 0;
  /// Height of every operator node built so far: operators (negation
  /// included) on its longest path to a leaf; leaves are absent (0).
  llvm::DenseMap<const IndexExpr *, unsigned> heights;

  bool fail(const std::string &message) {
    error = message;
    column = pos;
    return false;
  }

  bool tooDeep() {
    return fail("the expression nests more than " +
                std::to_string(kMaxExpressionDepth) +
                " levels deep (parentheses, negations and operators); "
                "split it into several statements");
  }
  /// Enters a parenthesis or negation whose token ends at `pos`.
  bool enter() {
    if (nesting >= kMaxExpressionDepth) {
      --pos; // at the token
      return tooDeep();
    }
    ++nesting;
    return true;
  }
  /// Records the height of the operator node `e`; fails beyond the limit
  /// (every later walk of the expression recurses that deep).
  bool recordHeight(const IndexExpr *e) {
    unsigned h = 1 + std::max(heights.lookup(e->lhs.get()),
                              heights.lookup(e->rhs.get()));
    heights[e] = h;
    return h <= kMaxExpressionDepth || tooDeep();
  }
  void skip() {
    while (pos < text.size() && isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(llvm::StringRef token) {
    skip();
    if (text.substr(pos).starts_with(token)) {
      pos += token.size();
      return true;
    }
    return false;
  }
  bool identifier(std::string &out) {
    skip();
    size_t start = pos;
    if (pos < text.size() &&
        (isalpha(static_cast<unsigned char>(text[pos])) || text[pos] == '_')) {
      ++pos;
      while (pos < text.size() &&
             (isalnum(static_cast<unsigned char>(text[pos])) ||
              text[pos] == '_'))
        ++pos;
    }
    out = text.substr(start, pos - start).str();
    return !out.empty();
  }

  bool parseAccess(Access &access) {
    if (!identifier(access.tensor))
      return fail("expected a tensor name");
    // A bare name is a scalar (order-0 tensor): `a = B(i) * C(i)`.
    if (!consume("("))
      return true;
    if (consume(")"))
      return true;
    do {
      std::string index;
      if (!identifier(index))
        return fail("expected an index variable in the access of '" +
                    access.tensor + "'");
      access.indices.push_back(index);
    } while (consume(","));
    if (!consume(")"))
      return fail("expected ',' or ')' in the access of '" + access.tensor +
                  "'");
    return true;
  }

  std::unique_ptr<IndexExpr> binary(IndexExpr::Kind kind,
                                    std::unique_ptr<IndexExpr> lhs,
                                    std::unique_ptr<IndexExpr> rhs) {
    auto e = std::make_unique<IndexExpr>();
    e->kind = kind;
    e->lhs = std::move(lhs);
    e->rhs = std::move(rhs);
    if (!recordHeight(e.get()))
      return nullptr;
    return e;
  }

  std::unique_ptr<IndexExpr> parseExpr() {
    std::unique_ptr<IndexExpr> lhs = parseTerm();
    while (lhs) {
      skip();
      IndexExpr::Kind kind;
      if (consume("+"))
        kind = IndexExpr::Kind::Add;
      else if (consume("-"))
        kind = IndexExpr::Kind::Sub;
      else
        break;
      std::unique_ptr<IndexExpr> rhs = parseTerm();
      if (!rhs)
        return nullptr;
      lhs = binary(kind, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  std::unique_ptr<IndexExpr> parseTerm() {
    std::unique_ptr<IndexExpr> lhs = parseFactor();
    while (lhs && consume("*")) {
      std::unique_ptr<IndexExpr> rhs = parseFactor();
      if (!rhs)
        return nullptr;
      lhs = binary(IndexExpr::Kind::Mul, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  /// Consumes decimal digits; returns how many.
  size_t digits() {
    size_t n = 0;
    for (; pos < text.size() && isdigit(static_cast<unsigned char>(text[pos]));
         ++pos)
      ++n;
    return n;
  }

  /// A decimal constant: digits with an optional fraction and exponent
  /// (`2`, `0.5`, `.5`, `1e-3`). Hexadecimal (`0x1p3`), `inf` and `nan`
  /// are not constants, and a constant must be a finite double that does
  /// not round a nonzero value to zero.
  std::unique_ptr<IndexExpr> parseConstant() {
    size_t start = pos;
    size_t mantissa = digits();
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      mantissa += digits();
    }
    size_t mantissaEnd = pos;
    if (mantissa > 0 && pos < text.size() &&
        (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (digits() == 0)
        pos = mantissaEnd; // not an exponent: reported as malformed below
    }
    auto wordChar = [&](size_t i) {
      return i < text.size() &&
             (isalnum(static_cast<unsigned char>(text[i])) ||
              text[i] == '_' || text[i] == '.');
    };
    if (mantissa == 0 || wordChar(pos)) {
      size_t end = pos;
      while (wordChar(end))
        ++end;
      pos = start;
      fail("malformed number '" + text.slice(start, end).str() +
           "'; constants are decimal: digits with an optional fraction and "
           "exponent, e.g. 2, 0.5 or 1e-3");
      return nullptr;
    }
    std::string lexeme = text.slice(start, pos).str();
    double v = std::strtod(lexeme.c_str(), nullptr);
    bool nonzero = llvm::any_of(text.slice(start, mantissaEnd),
                                [](char d) { return d >= '1' && d <= '9'; });
    if (!std::isfinite(v) || (v == 0 && nonzero)) {
      pos = start;
      fail("constant '" + lexeme + "' is out of the range of a double (" +
           (v == 0 ? "it would round to 0" : "it would be infinite") +
           "); write a constant of magnitude between about 4.9e-324 and "
           "1.8e308, or 0");
      return nullptr;
    }
    auto e = std::make_unique<IndexExpr>();
    e->kind = IndexExpr::Kind::Constant;
    e->constant = v;
    return e;
  }

  std::unique_ptr<IndexExpr> parseFactor() {
    skip();
    if (pos >= text.size()) {
      fail("expected an access, a constant or '(' but the statement ended");
      return nullptr;
    }
    if (consume("-")) {
      if (!enter())
        return nullptr;
      llvm::scope_exit leave([&] { --nesting; });
      std::unique_ptr<IndexExpr> operand = parseFactor();
      if (!operand)
        return nullptr;
      auto e = std::make_unique<IndexExpr>();
      e->kind = IndexExpr::Kind::Neg;
      e->lhs = std::move(operand);
      if (!recordHeight(e.get()))
        return nullptr;
      return e;
    }
    if (consume("(")) {
      if (!enter())
        return nullptr;
      llvm::scope_exit leave([&] { --nesting; });
      std::unique_ptr<IndexExpr> inner = parseExpr();
      if (!inner)
        return nullptr;
      if (!consume(")")) {
        fail("expected ')'");
        return nullptr;
      }
      return inner;
    }
    char c = text[pos];
    if (isdigit(static_cast<unsigned char>(c)) || c == '.')
      return parseConstant();
    auto e = std::make_unique<IndexExpr>();
    e->kind = IndexExpr::Kind::Access;
    if (!parseAccess(e->access))
      return nullptr;
    return e;
  }
};

void collectAccesses(const IndexExpr *e,
                     llvm::SmallVectorImpl<const Access *> &out) {
  if (!e)
    return;
  if (e->kind == IndexExpr::Kind::Access) {
    out.push_back(&e->access);
    return;
  }
  collectAccesses(e->lhs.get(), out);
  collectAccesses(e->rhs.get(), out);
}

bool hasAddition(const IndexExpr *e) {
  if (!e)
    return false;
  if (e->kind == IndexExpr::Kind::Add || e->kind == IndexExpr::Kind::Sub)
    return true;
  return hasAddition(e->lhs.get()) || hasAddition(e->rhs.get());
}

void printAccess(llvm::raw_ostream &os, const Access &a) {
  os << a.tensor;
  if (a.indices.empty())
    return;
  os << "(";
  llvm::interleave(a.indices, os, ",");
  os << ")";
}

int precedence(IndexExpr::Kind k) {
  switch (k) {
  case IndexExpr::Kind::Add:
  case IndexExpr::Kind::Sub:
    return 1;
  case IndexExpr::Kind::Mul:
    return 2;
  default:
    return 3;
  }
}

void printExpr(llvm::raw_ostream &os, const IndexExpr *e, int parentPrec,
               bool rightOfSub) {
  int prec = precedence(e->kind);
  bool paren = prec < parentPrec || (rightOfSub && prec == parentPrec);
  if (paren)
    os << "(";
  switch (e->kind) {
  case IndexExpr::Kind::Access:
    printAccess(os, e->access);
    break;
  case IndexExpr::Kind::Constant: {
    // The shortest of %.15g and %.17g that reads back as the same double.
    char buf[64];
    snprintf(buf, sizeof(buf), "%.15g", e->constant);
    if (std::strtod(buf, nullptr) != e->constant)
      snprintf(buf, sizeof(buf), "%.17g", e->constant);
    os << buf;
    break;
  }
  case IndexExpr::Kind::Neg:
    os << "-";
    printExpr(os, e->lhs.get(), 3, false);
    break;
  case IndexExpr::Kind::Add:
  case IndexExpr::Kind::Sub:
  case IndexExpr::Kind::Mul: {
    printExpr(os, e->lhs.get(), prec, false);
    os << (e->kind == IndexExpr::Kind::Add   ? " + "
           : e->kind == IndexExpr::Kind::Sub ? " - "
                                             : " * ");
    printExpr(os, e->rhs.get(), prec, e->kind != IndexExpr::Kind::Add);
    break;
  }
  }
  if (paren)
    os << ")";
}
} // namespace

bool mlir::dist::parseIndexStatement(llvm::StringRef text,
                                     IndexStatement &result,
                                     std::string &error, size_t &column) {
  StatementParser parser(text, error, column);
  return parser.parse(result);
}

llvm::SmallVector<const Access *> IndexStatement::rhsAccesses() const {
  llvm::SmallVector<const Access *> out;
  collectAccesses(rhs.get(), out);
  return out;
}

llvm::SmallVector<std::string> IndexStatement::indexVariables() const {
  llvm::SmallVector<std::string> vars;
  llvm::StringSet<> seen;
  for (const std::string &i : lhs.indices)
    if (seen.insert(i).second)
      vars.push_back(i);
  for (const Access *a : rhsAccesses())
    for (const std::string &i : a->indices)
      if (seen.insert(i).second)
        vars.push_back(i);
  return vars;
}

llvm::SmallVector<std::string> IndexStatement::reductionVariables() const {
  llvm::SmallVector<std::string> out;
  for (const std::string &v : indexVariables())
    if (!llvm::is_contained(lhs.indices, v))
      out.push_back(v);
  return out;
}

llvm::SmallVector<std::string> IndexStatement::tensorNames() const {
  llvm::SmallVector<std::string> names{lhs.tensor};
  for (const Access *a : rhsAccesses())
    if (!llvm::is_contained(names, a->tensor))
      names.push_back(a->tensor);
  return names;
}

bool IndexStatement::isPureProduct() const { return !hasAddition(rhs.get()); }

void IndexStatement::print(llvm::raw_ostream &os) const {
  printAccess(os, lhs);
  os << (accumulate ? " += " : " = ");
  printExpr(os, rhs.get(), 0, false);
}

namespace {
std::unique_ptr<IndexExpr> cloneExpr(const IndexExpr *e) {
  if (!e)
    return nullptr;
  auto copy = std::make_unique<IndexExpr>();
  copy->kind = e->kind;
  copy->access = e->access;
  copy->constant = e->constant;
  copy->lhs = cloneExpr(e->lhs.get());
  copy->rhs = cloneExpr(e->rhs.get());
  return copy;
}
} // namespace

IndexStatement IndexStatement::clone() const {
  IndexStatement copy;
  copy.lhs = lhs;
  copy.accumulate = accumulate;
  copy.rhs = cloneExpr(rhs.get());
  return copy;
}

namespace {
/// Every index variable used in the subtree of `e`.
void collectVariables(const IndexExpr *e, llvm::StringSet<> &out) {
  if (!e)
    return;
  if (e->kind == IndexExpr::Kind::Access) {
    for (const std::string &v : e->access.indices)
      out.insert(v);
    return;
  }
  collectVariables(e->lhs.get(), out);
  collectVariables(e->rhs.get(), out);
}

/// Walks down from the root with the summed variables that no product above
/// has summed yet (`open`): a product sums those both factors use; each
/// addend of an addition is guarded by the open ones it does not use.
void guardAddends(const IndexExpr *e, const llvm::SmallVector<std::string> &open,
                  AddendGuards &out) {
  if (!e || open.empty())
    return;
  switch (e->kind) {
  case IndexExpr::Kind::Access:
  case IndexExpr::Kind::Constant:
    return;
  case IndexExpr::Kind::Neg:
    guardAddends(e->lhs.get(), open, out);
    return;
  case IndexExpr::Kind::Mul: {
    llvm::StringSet<> l, r;
    collectVariables(e->lhs.get(), l);
    collectVariables(e->rhs.get(), r);
    // A variable one factor uses is summed inside that factor; the other
    // factor does not depend on it and needs no guard for it.
    llvm::SmallVector<std::string> inLhs, inRhs;
    for (const std::string &v : open) {
      if (l.contains(v) && r.contains(v))
        continue;
      (l.contains(v) ? inLhs : inRhs).push_back(v);
    }
    guardAddends(e->lhs.get(), inLhs, out);
    guardAddends(e->rhs.get(), inRhs, out);
    return;
  }
  case IndexExpr::Kind::Add:
  case IndexExpr::Kind::Sub:
    for (const IndexExpr *addend : {e->lhs.get(), e->rhs.get()}) {
      llvm::StringSet<> used;
      collectVariables(addend, used);
      llvm::SmallVector<std::string> inside, guard;
      for (const std::string &v : open)
        (used.contains(v) ? inside : guard).push_back(v);
      if (!guard.empty())
        out[addend] = guard;
      guardAddends(addend, inside, out);
    }
    return;
  }
}
} // namespace

AddendGuards mlir::dist::addendGuards(const IndexStatement &stmt) {
  AddendGuards out;
  guardAddends(stmt.rhs.get(), stmt.reductionVariables(), out);
  return out;
}
