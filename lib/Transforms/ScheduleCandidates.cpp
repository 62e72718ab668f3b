//===- ScheduleCandidates.cpp - schedules dist-auto-schedule tries --------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The candidate schedules of dist-auto-schedule, written as DISTAL schedule
// text (the commands of docs/dialect.md) for the pass to parse, verify and
// cost. The families are DISTAL Fig. 9's:
//
//   once     distribute(D), communicate({all}, last of D)         (Johnson)
//   split    ... split(r, ro, ri, s), reorder({ro, ..., ri}),
//            communicate(out, last of D), communicate({ins}, ro)   (SUMMA)
//   divide   the same with divide(r, ro, ri, q)             (COSMA's steps)
//   rotate   divide(r, ro, ri, q), rotate(ro, {outer}, ros),
//            communicate({ins}, ros)                (Cannon, PUMMA, 2.5D)
//
// each with and without substitute(..., gemm) when the statement is a
// product of two matrices (or an mttkrp, gemv or dot leaf where the
// statement has that form), and the stepping ones also with overlap(off)
// (one transfer buffer instead of two) when asked for.
//
//===----------------------------------------------------------------------===//

#include "ScheduleCandidates.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

namespace {
/// One candidate being written: its commands' text.
using Commands = llvm::SmallVector<std::string>;

/// Names and extents of one choice of distributed variables.
struct Distribution {
  /// Commands before the distribute: divides by 1 that make a loop of one
  /// iteration for a grid dimension of extent 1 when the statement has
  /// fewer variables than the grid has dimensions.
  Commands prefix;
  /// Statement variable -> its loop's name after `prefix`.
  llvm::StringMap<std::string> loopOf;
  /// The distributed loops, one per grid dimension.
  llvm::SmallVector<std::string> vars;
  /// Their outer (distributed) and inner (local) loops.
  llvm::SmallVector<std::string> outer, inner;
  /// The local loops in order and their extents.
  llvm::SmallVector<std::string> local;
  llvm::StringMap<int64_t> localExtent;
};

class Writer {
public:
  Writer(const IndexStatement &stmt, const llvm::StringMap<int64_t> &extents,
         ArrayRef<int64_t> grid, bool overlapOff)
      : stmt(stmt), extents(extents), grid(grid), overlapOff(overlapOff) {
    for (const std::string &v : stmt.indexVariables())
      used.insert(v);
    for (const std::string &t : stmt.tensorNames())
      used.insert(t);
    tensors = stmt.tensorNames();
    SmallVector<const Access *> rhs = stmt.rhsAccesses();
    gemmShaped = stmt.isPureProduct() && rhs.size() == 2 &&
                 stmt.indexVariables().size() == 3 &&
                 stmt.reductionVariables().size() == 1 &&
                 stmt.lhs.indices.size() == 2 && rhs[0]->indices.size() == 2 &&
                 rhs[1]->indices.size() == 2;
    if (!gemmShaped)
      leafForms = leafFormsOf(stmt);
  }

  std::vector<std::string> run() {
    SmallVector<std::string> vars = stmt.indexVariables();
    if (grid.empty() || vars.empty())
      return {};
    // A grid dimension of extent 1 may take a loop of one iteration (an
    // empty name below) when there are fewer variables than dimensions.
    placeholders = grid.size() > vars.size() ? grid.size() - vars.size() : 0;
    if (placeholders > size_t(llvm::count(grid, 1)))
      return {};
    SmallVector<std::string> chosen;
    SmallVector<bool> taken(vars.size(), false);
    choose(vars, chosen, taken);
    return std::move(out);
  }

private:
  /// Every ordered choice of grid.size() distinct variables.
  void choose(ArrayRef<std::string> vars, SmallVector<std::string> &chosen,
              SmallVector<bool> &taken) {
    if (chosen.size() == grid.size()) {
      if (size_t(llvm::count(chosen, "")) != placeholders)
        return;
      // The names this choice makes are free again for the next one.
      llvm::StringSet<> saved = used;
      writeFamilies(distribution(chosen));
      used = std::move(saved);
      return;
    }
    if (grid[chosen.size()] == 1 &&
        size_t(llvm::count(chosen, "")) < placeholders) {
      chosen.push_back("");
      choose(vars, chosen, taken);
      chosen.pop_back();
    }
    for (auto [i, v] : llvm::enumerate(vars)) {
      if (taken[i])
        continue;
      taken[i] = true;
      chosen.push_back(v);
      choose(vars, chosen, taken);
      chosen.pop_back();
      taken[i] = false;
    }
  }

  /// A name not used by the statement or an earlier command.
  std::string fresh(const std::string &base) {
    std::string name = base;
    while (used.contains(name))
      name += "_";
    return name;
  }

  Distribution distribution(ArrayRef<std::string> chosen) {
    Distribution d;
    SmallVector<std::string> vars = stmt.indexVariables();
    for (const std::string &v : vars)
      d.loopOf[v] = v;
    // Each placeholder: the first variable divided into 1 x its extent.
    for (const std::string &c : chosen) {
      if (!c.empty()) {
        d.vars.push_back(c);
        continue;
      }
      std::string &first = d.loopOf[vars.front()];
      std::string unit = fresh("u"), rest = fresh(vars.front() + "r");
      used.insert(unit);
      used.insert(rest);
      d.prefix.push_back("divide(" + first + ", " + unit + ", " + rest +
                         ", 1)");
      first = rest;
      d.vars.push_back(unit);
    }
    for (std::string &v : d.vars)
      if (d.loopOf.count(v))
        v = d.loopOf[v];
    llvm::StringMap<std::string> innerOf;
    for (auto [k, v] : llvm::enumerate(d.vars)) {
      d.outer.push_back(fresh(v + "o"));
      used.insert(d.outer.back());
      d.inner.push_back(fresh(v + "i"));
      used.insert(d.inner.back());
      innerOf[v] = d.inner.back();
      int64_t n = extentOf(d, v), g = grid[k];
      d.localExtent[d.inner.back()] = (n + g - 1) / g;
    }
    for (const std::string &v : vars) {
      const std::string &loop = d.loopOf[v];
      auto it = innerOf.find(loop);
      d.local.push_back(it == innerOf.end() ? loop : it->second);
      if (it == innerOf.end())
        d.localExtent[loop] = extents.lookup(v);
    }
    return d;
  }

  /// The extent of loop `loop` before the distribute: a statement
  /// variable's (also after dividing it by 1), or 1 for a placeholder.
  int64_t extentOf(const Distribution &d, StringRef loop) const {
    for (const auto &kv : d.loopOf)
      if (kv.getValue() == loop)
        return extents.lookup(kv.getKey());
    return 1;
  }

  static std::string list(ArrayRef<std::string> names) {
    std::string s = "{";
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(names, os);
    os << "}";
    return s;
  }

  std::string distributeCommand(const Distribution &d) const {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "distribute(" << list(d.vars) << ", " << list(d.outer) << ", "
       << list(d.inner) << ", Grid(";
    llvm::interleaveComma(grid, os);
    os << "))";
    return s;
  }

  /// A family that steps: `cmds` as emit() writes them, and once more with
  /// overlap(off) (single transfer buffers) when asked for.
  void emitSteps(const Commands &cmds, ArrayRef<std::string> order) {
    emit(cmds, order);
    if (!overlapOff)
      return;
    Commands off(cmds);
    off.push_back("overlap(off)");
    emit(off, order);
  }

  /// Writes `cmds`, and once more with a GEMM leaf over the innermost three
  /// loops `order` when the statement is a matrix product, or with each
  /// other leaf it has the form of (leafForms) over its variables' loops
  /// (`leafLoops`), reordered innermost.
  void emit(const Commands &cmds, ArrayRef<std::string> order) {
    std::string text = "[";
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(cmds, os);
    out.push_back(text + "]");
    if (gemmShaped && order.size() >= 3) {
      out.push_back(text + ", substitute(" + list(order.take_back(3)) +
                    ", gemm)]");
      return;
    }
    for (const auto &[roles, kernel] : leafForms) {
      SmallVector<std::string> leaf, reordered;
      for (const std::string &v : roles)
        leaf.push_back(leafLoops.lookup(v));
      for (const std::string &o : order)
        if (!llvm::is_contained(leaf, o))
          reordered.push_back(o);
      llvm::append_range(reordered, leaf);
      out.push_back(text + ", reorder(" + list(reordered) + "), substitute(" +
                    list(leaf) + ", " + kernel + ")]");
    }
  }

  /// The leaf kernels (docs/dialect.md's `substitute`) the statement has
  /// the form of, each with the statement variables its loops derive from,
  /// innermost last: `mttkrp` for A(i,l) = B(i,j,k) * C(j,l) * D(k,l)
  /// (i, j, k, l); `gemv` for a product of two tensors with one summed
  /// variable k, the output's last index r and k last in one input (r, k:
  /// TTV with its vector); `dot` for a product of two tensors whose last
  /// index k is the same and summed, the output not indexed by it (k:
  /// inner products). The verifier rejects the candidates whose operands
  /// do not fit the kernel (contiguity, BLAS's sizes).
  static SmallVector<std::pair<SmallVector<std::string>, std::string>>
  leafFormsOf(const IndexStatement &stmt) {
    SmallVector<std::pair<SmallVector<std::string>, std::string>> forms;
    SmallVector<const Access *> rhs = stmt.rhsAccesses();
    if (!stmt.isPureProduct())
      return forms;
    const auto &a = stmt.lhs.indices;
    SmallVector<std::string> sums = stmt.reductionVariables();
    if (rhs.size() == 3 && a.size() == 2 && rhs[0]->indices.size() == 3 &&
        rhs[1]->indices.size() == 2 && rhs[2]->indices.size() == 2) {
      const auto &b = rhs[0]->indices, &c = rhs[1]->indices,
                 &d = rhs[2]->indices;
      SmallVector<std::string> roles{a[0], b[1], b[2], a[1]};
      if (b[0] == a[0] && c[0] == b[1] && c[1] == a[1] && d[0] == b[2] &&
          d[1] == a[1] &&
          llvm::StringSet<>(llvm::from_range, roles).size() == 4)
        forms.push_back({roles, "mttkrp"});
    }
    if (rhs.size() != 2 || rhs[0]->indices.empty() ||
        rhs[1]->indices.empty())
      return forms;
    if (sums.size() == 1 && !a.empty() &&
        llvm::any_of(rhs, [&](const Access *x) {
          return x->indices.back() == sums.front();
        }))
      forms.push_back({{a.back(), sums.front()}, "gemv"});
    const std::string &k = rhs[0]->indices.back();
    if (rhs[1]->indices.back() == k && llvm::is_contained(sums, k))
      forms.push_back({{k}, "dot"});
    return forms;
  }

  void writeFamilies(const Distribution &d) {
    std::string dist = distributeCommand(d);
    for (const std::string &c : llvm::reverse(d.prefix))
      dist = c + ", " + dist;
    const std::string &last = d.outer.back();
    // Each statement variable's local loop (a leaf's loops).
    leafLoops.clear();
    for (auto [v, l] : llvm::zip(stmt.indexVariables(), d.local))
      leafLoops[v] = l;
    // Every operand once: Johnson's form when a summed variable is
    // distributed (the output is reduced), owner computes otherwise.
    emit({dist, "communicate(" + list(tensors) + ", " + last + ")"},
         d.local);
    // The summed loop that steps: a summed variable left local, or the
    // local part of a distributed one.
    for (const std::string &v : stmt.reductionVariables()) {
      const std::string &loop = d.loopOf.find(v)->second;
      auto *pos = llvm::find(d.vars, loop);
      std::string r =
          pos == d.vars.end() ? loop : d.inner[pos - d.vars.begin()];
      writeSteps(d, dist, last, r);
    }
  }

  /// The families that step over the summed local loop `r`.
  void writeSteps(const Distribution &d, const std::string &dist,
                  const std::string &last, const std::string &r) {
    int64_t n = d.localExtent.lookup(r);
    if (n < 2)
      return;
    std::string ro = fresh(r + "o"), ri = fresh(r + "i");
    SmallVector<std::string> order{ro};
    for (const std::string &l : d.local)
      if (l != r)
        order.push_back(l);
    order.push_back(ri);
    llvm::StringMap<std::string> saved = leafLoops;
    for (auto &kv : leafLoops)
      if (kv.getValue() == r)
        kv.getValue() = ri;
    std::string reorder = "reorder(" + list(order) + ")";
    std::string outComm = "communicate(" + tensors.front() + ", " + last + ")";
    SmallVector<std::string> ins(llvm::drop_begin(tensors));
    auto inComm = [&](const std::string &at) {
      return "communicate(" + list(ins) + ", " + at + ")";
    };
    // SUMMA: chunks of the summed loop.
    for (int64_t s : {64, 256, 1024, 4096})
      if (s < n)
        emitSteps({dist, "split(" + r + ", " + ro + ", " + ri + ", " +
                        std::to_string(s) + ")",
              reorder, outComm, inComm(ro)},
             order);
    // Parts: the grid's extents and small counts (COSMA's steps).
    llvm::SmallSetVector<int64_t, 8> parts;
    for (int64_t g : grid)
      if (g > 1 && g <= n)
        parts.insert(g);
    for (int64_t q : {2, 8})
      if (q <= n)
        parts.insert(q);
    std::string ros = fresh(ro + "s");
    for (int64_t q : parts) {
      std::string divide = "divide(" + r + ", " + ro + ", " + ri + ", " +
                           std::to_string(q) + ")";
      emitSteps({dist, divide, reorder, outComm, inComm(ro)}, order);
      // Rotations on a 2-D grid over both distributed loops (Cannon) or
      // one (PUMMA); on a 3-D grid over the first two (2.5D).
      if (d.outer.size() < 2 || !llvm::is_contained(grid, q))
        continue;
      SmallVector<SmallVector<std::string>> groups;
      if (d.outer.size() == 2) {
        groups.push_back(d.outer);
        for (const std::string &o : d.outer)
          groups.push_back({o});
      } else {
        groups.push_back({d.outer[0], d.outer[1]});
      }
      for (const auto &g : groups)
        emitSteps({dist, divide, reorder,
                   "rotate(" + ro + ", " + list(g) + ", " + ros + ")",
                   outComm, inComm(ros)},
                  order);
    }
    leafLoops = std::move(saved);
  }

  const IndexStatement &stmt;
  const llvm::StringMap<int64_t> &extents;
  ArrayRef<int64_t> grid;
  SmallVector<std::string> tensors;
  llvm::StringSet<> used;
  bool gemmShaped = false;
  bool overlapOff = false;
  /// The leaf kernels other than GEMM the statement has the form of
  /// (leafFormsOf), and each statement variable's innermost loop in the
  /// family being written.
  SmallVector<std::pair<SmallVector<std::string>, std::string>> leafForms;
  llvm::StringMap<std::string> leafLoops;
  size_t placeholders = 0;
  std::vector<std::string> out;
};
} // namespace

std::vector<std::string>
mlir::dist::enumerateScheduleCandidates(const IndexStatement &stmt,
                                        const llvm::StringMap<int64_t> &extents,
                                        ArrayRef<int64_t> grid,
                                        bool overlapOff) {
  return Writer(stmt, extents, grid, overlapOff).run();
}
