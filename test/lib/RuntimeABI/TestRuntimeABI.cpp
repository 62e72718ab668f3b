//===- TestRuntimeABI.cpp - compiler encoder vs runtime parser ------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-test-runtime-abi [cases per grid]   (default 40; run under mpirun)
//
// The round trip of the runtime contract (distrt/abi.h): builds
// !dist.tensor types (the dialect's attributes, verified) for random
// layouts -- blocked, cyclic and block-cyclic dimensions over one or more
// mesh modes, unpartitioned dimensions, replicated and fixed mesh modes,
// skewed dimensions, scalars -- on every 1-, 2- and 3-D grid made of this
// job's ranks, encodes them with the compiler's encoder
// (abi::layoutDescriptor, abi::dtypeOf: what dist-materialize-spmd emits)
// and hands them to the runtime's parser through its public entry points:
// distrt_layout_tile_size, distrt_layout_tile_capacity and
// distrt_layout_fill with the encoded element type. Every result is
// checked against a model computed from the MLIR attributes alone (the
// dialect's documented semantics), never from the descriptor: tile sizes of
// this and of every process, and every element of the filled tile, read
// as the C type of the MLIR element type. Encoder and parser disagreeing on
// a kind code, a field's position, the skew bits or a dtype code fails it.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

extern "C" {
#include "test_util.h"
}

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::dist;

namespace {
uint64_t rngState = 0x5eed;
int64_t rnd(int64_t n) { // 0 .. n-1
  rngState = rngState * 6364136223846793005ULL + 1442695040888963407ULL;
  return int64_t((rngState >> 33) % uint64_t(n));
}

/// Feature counts (over all cases of this rank; equal on every rank).
struct Counts {
  int64_t cases = 0, blocked = 0, cyclic = 0, blockCyclic = 0, none = 0,
          multiMode = 0, replicated = 0, fixed = 0, skewed = 0, scalars = 0,
          emptyTiles = 0, dtypes[4] = {0, 0, 0, 0};
};

/// One random layout of a tensor on a grid, as the dialect's attributes.
struct Case {
  std::vector<int64_t> shape;
  Type elt;
  DistTensorType type;
};

std::string describe(DistTensorType t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

Type elementType(MLIRContext &ctx, int64_t i) {
  switch (i) {
  case 0:
    return Float32Type::get(&ctx);
  case 1:
    return Float64Type::get(&ctx);
  case 2:
    return IntegerType::get(&ctx, 32);
  default:
    return IntegerType::get(&ctx, 64);
  }
}

/// A random valid layout (DimDistAttr / LevelLayoutAttr verifiers' rules).
bool randomCase(MLIRContext &ctx, const std::vector<int64_t> &grid, Counts &n,
                Case &out) {
  int64_t gdims = grid.size();
  int64_t nd = rnd(5) == 0 ? 0 : 1 + rnd(3);
  std::vector<std::vector<int64_t>> axes(nd);
  std::vector<int64_t> fixedAxes, fixedCoords;
  for (int64_t a = 0; a < gdims; ++a) {
    int64_t r = rnd(nd + 2);
    if (r < nd) {
      auto &t = axes[r];
      t.insert(t.begin() + rnd(t.size() + 1), a);
    } else if (r == nd) {
      ++n.replicated;
    } else {
      fixedAxes.push_back(a); // ascending, as the verifier wants
      fixedCoords.push_back(rnd(grid[a]));
      ++n.fixed;
    }
  }
  std::vector<PartitionKind> kinds(nd, PartitionKind::none);
  std::vector<int64_t> blocks(nd, 0);
  for (int64_t d = 0; d < nd; ++d) {
    if (axes[d].empty()) {
      ++n.none;
      continue;
    }
    if (axes[d].size() > 1)
      ++n.multiMode;
    switch (rnd(3)) {
    case 0:
      kinds[d] = PartitionKind::blocked;
      ++n.blocked;
      break;
    case 1:
      kinds[d] = PartitionKind::cyclic;
      ++n.cyclic;
      break;
    default:
      kinds[d] = PartitionKind::block_cyclic;
      blocks[d] = 1 + rnd(4);
      ++n.blockCyclic;
    }
  }
  // At most one skewed dimension (skews cannot chain): a partitioned one,
  // skewed by some of the modes that do not partition it.
  std::vector<std::vector<int64_t>> skew(nd);
  if (nd > 0 && rnd(2) == 0) {
    int64_t d = rnd(nd);
    if (!axes[d].empty()) {
      for (int64_t a = 0; a < gdims; ++a)
        if (std::find(axes[d].begin(), axes[d].end(), a) == axes[d].end() &&
            rnd(2) == 0)
          skew[d].push_back(a);
      if (!skew[d].empty())
        ++n.skewed;
    }
  }
  out.shape.clear();
  for (int64_t d = 0; d < nd; ++d)
    out.shape.push_back(1 + rnd(rnd(3) == 0 ? 23 : 9));
  int64_t e = rnd(4);
  ++n.dtypes[e];
  out.elt = elementType(ctx, e);
  if (nd == 0)
    ++n.scalars;

  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&ctx)); };
  SmallVector<DimDistAttr> dims;
  for (int64_t d = 0; d < nd; ++d) {
    DimDistAttr dim = DimDistAttr::getChecked(
        emitError, &ctx, ArrayRef<int64_t>(axes[d]), kinds[d], blocks[d],
        ArrayRef<int64_t>(skew[d]));
    if (!dim)
      return false;
    dims.push_back(dim);
  }
  LevelLayoutAttr level = LevelLayoutAttr::getChecked(
      emitError, &ctx, ArrayRef<DimDistAttr>(dims),
      ArrayRef<int64_t>(fixedAxes), ArrayRef<int64_t>(fixedCoords));
  if (!level)
    return false;
  LayoutAttr layout =
      LayoutAttr::getChecked(emitError, &ctx, FlatSymbolRefAttr::get(&ctx, "g"),
                             ArrayRef<LevelLayoutAttr>(level));
  if (!layout)
    return false;
  out.type = DistTensorType::getChecked(
      emitError, &ctx, ArrayRef<int64_t>(out.shape), out.elt, layout);
  return bool(out.type);
}

/// The model, from the attributes: global indices of dimension d owned by
/// the process at coordinates c, increasing (the tile's local order).
std::vector<int64_t> owned(const std::vector<int64_t> &grid,
                           const std::vector<int64_t> &c, int64_t n,
                           DimDistAttr dim) {
  std::vector<int64_t> idx;
  if (dim.getKind() == PartitionKind::none) {
    for (int64_t e = 0; e < n; ++e)
      idx.push_back(e);
    return idx;
  }
  // Owner part: multi2linear(c, axes) (first mode fastest) plus the skew
  // modes' coordinates, mod the number of parts.
  int64_t Q = 1, q = 0;
  for (int64_t a : dim.getAxes()) {
    q += c[a] * Q;
    Q *= grid[a];
  }
  for (int64_t s : dim.getSkew())
    q += c[s];
  q %= Q;
  int64_t b = dim.getKind() == PartitionKind::blocked  ? (n + Q - 1) / Q
              : dim.getKind() == PartitionKind::cyclic ? 1
                                                       : dim.getBlock();
  for (int64_t e = 0; e < n; ++e)
    if ((e / b) % Q == q)
      idx.push_back(e);
  return idx;
}

/// Per dimension, the global indices the process at c holds; false when it
/// holds nothing (not on the fixed face).
bool tileOf(const Case &k, const std::vector<int64_t> &grid,
            const std::vector<int64_t> &c,
            std::vector<std::vector<int64_t>> &idx) {
  LevelLayoutAttr level = k.type.getLayout().getOuter();
  for (auto [a, coord] :
       llvm::zip(level.getFixedAxes(), level.getFixedCoords()))
    if (c[a] != coord)
      return false;
  idx.clear();
  for (auto [n, dim] : llvm::zip(k.shape, level.getDims()))
    idx.push_back(owned(grid, c, n, dim));
  return true;
}

int64_t volume(const std::vector<std::vector<int64_t>> &idx) {
  int64_t v = 1;
  for (const auto &i : idx)
    v *= i.size();
  return v;
}

/// The value distrt_layout_fill stores, as the element type says.
bool sameValue(const void *buf, int64_t i, Type elt, double v) {
  if (elt.isF32())
    return ((const float *)buf)[i] == (float)v;
  if (elt.isF64())
    return ((const double *)buf)[i] == v;
  if (elt.isInteger(32))
    return ((const int32_t *)buf)[i] == (int32_t)std::floor(8.0 * v);
  return ((const int64_t *)buf)[i] == (int64_t)std::floor(8.0 * v);
}

int64_t bytesOf(Type elt) { return elt.getIntOrFloatBitWidth() / 8; }

/// Runs one case on grid g; returns the number of failed checks.
int64_t runCase(const Case &k, distrt_grid *g, const std::vector<int64_t> &grid,
                int64_t seed, Counts &n) {
  SmallVector<int64_t> desc = abi::layoutDescriptor(k.type);
  int64_t dtype = abi::dtypeOf(k.elt);
  int64_t fails = 0;
  std::string what = describe(k.type);

  std::vector<int64_t> me(grid.size());
  for (size_t a = 0; a < grid.size(); ++a)
    me[a] = distrt_grid_coord(g, a);
  std::vector<std::vector<int64_t>> idx;
  int64_t mySize = tileOf(k, grid, me, idx) ? volume(idx) : 0;

  // Largest tile over every process (at least 1), from the model.
  int64_t cap = 1, procs = 1;
  for (int64_t s : grid)
    procs *= s;
  std::vector<int64_t> c(grid.size());
  std::vector<std::vector<int64_t>> other;
  for (int64_t r = 0; r < procs; ++r) {
    for (int64_t a = grid.size() - 1, x = r; a >= 0; --a) {
      c[a] = x % grid[a];
      x /= grid[a];
    }
    if (tileOf(k, grid, c, other))
      cap = std::max(cap, volume(other));
    else
      ++n.emptyTiles;
  }

  int64_t gotSize = distrt_layout_tile_size(g, desc.data());
  fails += !EXPECT(gotSize == mySize, "%s: tile size %lld, model %lld",
                   what.c_str(), (long long)gotSize, (long long)mySize);
  int64_t gotCap = distrt_layout_tile_capacity(g, desc.data());
  fails += !EXPECT(gotCap == cap, "%s: tile capacity %lld, model %lld",
                   what.c_str(), (long long)gotCap, (long long)cap);

  // Fill with the encoded dtype; read back as the MLIR element type.
  int64_t room = std::max({gotCap, cap, mySize});
  std::vector<char> buf(room * 8 + 8, 0);
  distrt_layout_fill(g, desc.data(), buf.data(), dtype, seed);
  if (mySize == 0 || gotSize != mySize)
    return fails;
  int64_t nd = k.shape.size(), bad = 0, firstBad = -1;
  std::vector<int64_t> pos(nd, 0);
  for (int64_t i = 0; i < mySize; ++i) {
    int64_t linear = 0;
    for (int64_t d = 0; d < nd; ++d)
      linear = linear * k.shape[d] + idx[d][pos[d]];
    if (!sameValue(buf.data(), i, k.elt, distrt_value(seed, linear))) {
      if (firstBad < 0)
        firstBad = i;
      ++bad;
    }
    for (int64_t d = nd - 1; d >= 0; --d) { // row-major odometer
      if (++pos[d] < (int64_t)idx[d].size())
        break;
      pos[d] = 0;
    }
  }
  fails += !EXPECT(bad == 0,
                   "%s: %lld of %lld filled elements differ from the model "
                   "(first at local %lld; dtype code %lld)",
                   what.c_str(), (long long)bad, (long long)mySize,
                   (long long)firstBad, (long long)dtype);
  return fails;
}

/// Every grid of `p` processes with 1 to 3 axes (ordered factorizations).
std::vector<std::vector<int64_t>> gridsOf(int64_t p) {
  std::vector<std::vector<int64_t>> out{{p}};
  for (int64_t a = 1; a <= p; ++a)
    if (p % a == 0)
      out.push_back({a, p / a});
  for (int64_t a = 1; a <= p; ++a)
    for (int64_t b = 1; a * b <= p; ++b)
      if (p % (a * b) == 0)
        out.push_back({a, b, p / (a * b)});
  return out;
}
} // namespace

int main(int argc, char **argv) {
  int64_t perGrid = argc > 1 ? std::atoll(argv[1]) : 40;
  tu_init("dist-test-runtime-abi");
  MLIRContext ctx;
  ctx.loadDialect<DistDialect>();
  // A layout the generator gets wrong is a bug of this test: report it.
  ScopedDiagnosticHandler handler(&ctx, [](Diagnostic &diag) {
    EXPECT(0, "invalid generated layout: %s", diag.str().c_str());
    return success();
  });

  // Element type codes: the encoder's names are the runtime's.
  EXPECT(abi::dtypeCode(Float32Type::get(&ctx)) == DISTRT_F32, "f32 code");
  EXPECT(abi::dtypeCode(Float64Type::get(&ctx)) == DISTRT_F64, "f64 code");
  EXPECT(abi::dtypeCode(IntegerType::get(&ctx, 32)) == DISTRT_I32, "i32 code");
  EXPECT(abi::dtypeCode(IntegerType::get(&ctx, 64)) == DISTRT_I64, "i64 code");
  EXPECT(abi::dtypeCode(Float16Type::get(&ctx)) == -1, "f16 has no code");
  EXPECT(abi::dtypeCode(IntegerType::get(&ctx, 8)) == -1, "i8 has no code");
  for (int64_t i = 0; i < 4; ++i)
    EXPECT(tu_esize(abi::dtypeOf(elementType(ctx, i))) ==
               bytesOf(elementType(ctx, i)),
           "element size of dtype code %lld", (long long)i);
  tu_section("element type codes");

  Counts n;
  int64_t failedCases = 0;
  std::vector<std::vector<int64_t>> grids = gridsOf(tu_size());
  for (const auto &grid : grids) {
    distrt_grid *g = distrt_grid_create(grid.size(), grid.data());
    for (int64_t i = 0; i < perGrid; ++i) {
      Case k;
      if (!randomCase(ctx, grid, n, k))
        continue; // reported by the diagnostic handler
      ++n.cases;
      failedCases += runCase(k, g, grid, 1000 + n.cases, n) != 0;
    }
    distrt_grid_free(g);
  }
  if (tu_rank() == 0) {
    std::printf(
        "layouts on %lld ranks: %lld on %zu grids; dims: blocked "
        "%lld, cyclic %lld, block-cyclic %lld, none %lld; skewed "
        "%lld; mesh modes: replicated %lld, fixed %lld; scalars "
        "%lld; f32 %lld, f64 %lld, i32 %lld, i64 %lld; multi-mode "
        "%lld; empty tiles %lld\n",
        (long long)tu_size(), (long long)n.cases, grids.size(),
        (long long)n.blocked, (long long)n.cyclic, (long long)n.blockCyclic,
        (long long)n.none, (long long)n.skewed, (long long)n.replicated,
        (long long)n.fixed, (long long)n.scalars, (long long)n.dtypes[0],
        (long long)n.dtypes[1], (long long)n.dtypes[2], (long long)n.dtypes[3],
        (long long)n.multiMode, (long long)n.emptyTiles);
    std::fflush(stdout);
  }
  EXPECT(failedCases == 0, "%lld cases failed", (long long)failedCases);
  tu_section("layout descriptors: encoder and parser agree");
  return tu_finish();
}
