//===- LeafKernels.h - the leaves of a computation's loop nest --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The leaf code of a dist.compute, on the boxes of its tensors (buffers
// filled by the transfers, or views of the tiles): the scalar update of one
// iteration point, one linalg.generic when the leaf's ranges are exact
// intervals, a dist.gemm for substitute(..., gemm), a dist.gemv for
// substitute(..., gemv), a dist.dot for substitute(..., dot) and a Khatri-Rao
// product and a dist.gemm for substitute(..., mttkrp).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_LEAFKERNELS_H
#define DIST_LIB_TRANSFORMS_SPMD_LEAFKERNELS_H

#include "ComputeRanges.h"
#include "SPMDBuilder.h"

#include <string>

namespace mlir {
namespace dist {
namespace spmd {

/// Emits the scalar update of the statement at the point given by
/// `valueOf`, reading and writing the boxes in `boxes`.
void emitPointUpdate(SPMDBuilder &rt, OpBuilder &b, Location loc, Type elt,
                     llvm::StringMap<BoxBuffer> &boxes,
                     const IndexStatement &stmt,
                     function_ref<Value(StringRef)> valueOf);

/// The leaf as one linalg.generic over strided views of the boxes, when
/// every statement variable covers an exact interval at the leaf. Fails
/// without emitting anything (the guarded scalar loops are used instead)
/// when a range is not exact, the output repeats an index or the output
/// tensor is also read.
LogicalResult tryEmitLinalg(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                            const IndexStatement &stmt,
                            llvm::StringMap<BoxBuffer> &boxes,
                            const llvm::StringSet<> &fixedSet, Type elt);

/// A dist.gemm for the leaf when the buffers are laid out for it; fails
/// without emitting anything and says why in `whyNot` otherwise.
LogicalResult tryEmitGemm(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                          const IndexStatement &stmt,
                          llvm::StringMap<BoxBuffer> &boxes, unsigned leafLevel,
                          const llvm::StringSet<> &fixedSet, Type elt,
                          std::string &whyNot);

/// A dist.gemv (substitute(..., gemv): out(I) += M(I,J) * v(J), M's box
/// row-major, passed transposed when its last index is I) for the leaf;
/// fails without emitting anything and says why in `whyNot` otherwise.
LogicalResult tryEmitGemv(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                          const IndexStatement &stmt,
                          llvm::StringMap<BoxBuffer> &boxes,
                          const llvm::StringSet<> &fixedSet, Type elt,
                          std::string &whyNot);

/// A dist.dot (substitute(..., dot): out() += u(K) * v(K)) for the leaf;
/// fails without emitting anything and says why in `whyNot` otherwise.
LogicalResult tryEmitDot(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                         const IndexStatement &stmt,
                         llvm::StringMap<BoxBuffer> &boxes,
                         const llvm::StringSet<> &fixedSet, Type elt,
                         std::string &whyNot);

/// Statement variables and tensors in the roles of
/// A(i,l) = B(i,j,k) * C(j,l) * D(k,l), with B's last two indices j, k.
struct MttkrpRoles {
  std::string i, j, k, l;
  const Access *out = nullptr, *t = nullptr, *mj = nullptr, *mk = nullptr;
};

/// Whether the statement is an MTTKRP; its roles in `r`.
bool mttkrpRoles(const IndexStatement &stmt, const LoopNest &nest,
                 MttkrpRoles &r);

/// Whether the leaf ranges are exact intervals (so a GEMM covers exactly
/// the leaf's points) for a float type.
bool mttkrpFits(ComputeRanges &cl, const IndexStatement &stmt,
                const MttkrpRoles &r, const llvm::StringSet<> &fs, Type elt);

/// out(I, L) += T(I, JK) * KRt(L, JK)^T with KRt(l, j*K + k) =
/// Mj(j,l) Mk(k,l) built in `krBuf` (L * J * K elements): library calls
/// only (dist.zero_buffer, rank-1 dist.gemm per l, then one dist.gemm, or
/// one per j when T's (j, k) block is not contiguous), so the leaf also
/// runs on device tiles.
void emitMttkrp(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                const IndexStatement &stmt, const MttkrpRoles &r,
                llvm::StringMap<BoxBuffer> &boxes, const llvm::StringSet<> &fs,
                Type elt, Value krBuf);

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_LEAFKERNELS_H
