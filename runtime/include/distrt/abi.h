/*===- distrt/abi.h - encodings shared by the compiler and distrt -*- C -*-===*
 *
 * Part of the dist project: distributed tensor algebra in MLIR.
 *
 * The values the compiler (dist-materialize-spmd, convert-dist-to-runtime)
 * writes into the code it emits and the runtime reads back: element type
 * codes, reduction operator codes, the dimension limit, and the layout
 * descriptor.  Defined once, here; distrt.h includes this header, the
 * compiler includes it directly (lib/Dialect/Dist/IR/RuntimeABI.cpp encodes
 * with these names and static_asserts that the dialect's enums equal them).
 *
 * Plain C99, usable from C and C++; no dependency on MPI or MLIR.
 *
 * Layout descriptor: the int64 array
 *
 *   [ndims,
 *    per dimension d (0 .. ndims-1):
 *      n_d, kind_d, block_d, naxes_d, axes_d[0] .. axes_d[naxes_d - 1],
 *    nfixed,
 *    per fixed grid axis: axis, coord]
 *
 *   ndims    tensor rank, 0 (a scalar) .. DISTRT_MAX_DIMS
 *   n_d      extent of dimension d (>= 1)
 *   kind_d   DISTRT_KIND_* in the low byte (DISTRT_KIND_MASK); a skewed
 *            dimension's skew modes as a mask of grid axes in the bits from
 *            DISTRT_SKEW_SHIFT up (bit a: grid axis a rotates the owners);
 *            see DISTRT_DESC_KIND / _KIND_OF / _SKEW_OF
 *   block_d  block size of DISTRT_KIND_BLOCK_CYCLIC (>= 1), else 0
 *   naxes_d  number of grid axes (mesh modes) dimension d is dealt over, 0
 *            exactly when kind_d is DISTRT_KIND_NONE; axes_d lists them, the
 *            first varying fastest
 *   nfixed   number of grid axes the tensor is fixed on (only processes at
 *            coordinate `coord` of each such `axis` hold data)
 *
 * Grid axes used by no dimension and not fixed replicate the tensor.  The
 * runtime's one parser is parse_layout_as (runtime/lib/layout_desc.c),
 * which every function that reads a descriptor uses; docs/runtime.md
 * ("Compiler ABI") describes the contract.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_ABI_H
#define DISTRT_ABI_H

#include <stdint.h>

/** Element types (`dtype` arguments). */
enum {
  DISTRT_F32 = 0, /**< float   (4 bytes) */
  DISTRT_F64 = 1, /**< double  (8 bytes) */
  DISTRT_I32 = 2, /**< int32_t (4 bytes) */
  DISTRT_I64 = 3  /**< int64_t (8 bytes) */
};

/** Reduction operators (`op` arguments). */
enum {
  DISTRT_SUM = 0,
  DISTRT_PROD = 1,
  DISTRT_MIN = 2,
  DISTRT_MAX = 3
};

/** Maximum number of grid axes (and of tensor dimensions in a layout). */
#define DISTRT_MAX_DIMS 8

/** Partition kinds of a layout dimension (the dialect's PartitionKind). */
enum {
  DISTRT_KIND_NONE = 0,        /**< not partitioned: whole on every process */
  DISTRT_KIND_BLOCKED = 1,     /**< blocks of ceil(n / Q) */
  DISTRT_KIND_CYCLIC = 2,      /**< round robin (blocks of 1) */
  DISTRT_KIND_BLOCK_CYCLIC = 3 /**< round robin of blocks of block_d */
};
/** The largest partition kind. */
#define DISTRT_KIND_LAST DISTRT_KIND_BLOCK_CYCLIC

/** The kind field: kind in the low byte, skew mask from bit 8 up. */
#define DISTRT_SKEW_SHIFT 8
#define DISTRT_KIND_MASK 0xff
/** Encodes a kind field from a DISTRT_KIND_* value and a skew mask. */
#define DISTRT_DESC_KIND(kind, skew_mask)                                      \
  ((int64_t)(kind) | ((int64_t)(skew_mask) << DISTRT_SKEW_SHIFT))
/** The DISTRT_KIND_* value of a kind field. */
#define DISTRT_DESC_KIND_OF(field) ((field) & DISTRT_KIND_MASK)
/** The skew mask (bit a: grid axis a) of a kind field. */
#define DISTRT_DESC_SKEW_OF(field) ((field) >> DISTRT_SKEW_SHIFT)

/** Descriptor field order: the header, a dimension's fixed fields (each
 * followed by its naxes_d axes), and a fixed axis' pair. */
enum {
  DISTRT_DESC_NDIMS = 0,      /**< index of ndims in the descriptor */
  DISTRT_DESC_DIM_N = 0,      /**< offsets inside a dimension's record */
  DISTRT_DESC_DIM_KIND = 1,
  DISTRT_DESC_DIM_BLOCK = 2,
  DISTRT_DESC_DIM_NAXES = 3,
  DISTRT_DESC_DIM_AXES = 4,   /**< the axes follow: naxes_d entries */
  DISTRT_DESC_FIXED_AXIS = 0, /**< offsets inside a fixed-axis pair */
  DISTRT_DESC_FIXED_COORD = 1,
  DISTRT_DESC_FIXED_FIELDS = 2
};

/** The longest descriptor: every dimension over every grid axis, every
 * grid axis fixed (an upper bound; valid descriptors are shorter). */
#define DISTRT_DESC_MAX_LEN                                                    \
  (2 + DISTRT_MAX_DIMS * (DISTRT_DESC_DIM_AXES + DISTRT_MAX_DIMS) +            \
   DISTRT_DESC_FIXED_FIELDS * DISTRT_MAX_DIMS)

/** The extent field (DISTRT_DESC_DIM_N) of a dimension whose extent is
 * given at call time, in the layout templates of library functions with
 * dynamic (`?`) extents; distrt_layout_with_extents fills it in. */
#define DISTRT_DESC_DYNAMIC (-1)

/** Stationary operand of distrt_onesided_matmul (the `stationary`
 * argument): the operand whose blocks never move. */
enum {
  DISTRT_STATIONARY_A = 0,
  DISTRT_STATIONARY_B = 1,
  DISTRT_STATIONARY_C = 2
};

/* Sparse matrices (distrt/sparse.h): the compiler passes these codes as
 * the dist.sparse_part part and the dist.generate kind (static_asserts in
 * lib/Dialect/Dist/IR/DistDialect.cpp). */
/** The parts of distrt_spmat_part. */
enum {
  DISTRT_SPMAT_ALL = 0,    /**< the whole local piece, global columns */
  DISTRT_SPMAT_DIAG = 1,   /**< columns in this process's block of x */
  DISTRT_SPMAT_OFFDIAG = 2 /**< the other columns, as ghost numbers */
};

/** The partitions of distrt_spmat_partition. */
enum {
  DISTRT_SPMAT_ROWS = 0,     /**< rows blocked (distrt_spmat_create) */
  DISTRT_SPMAT_NONZEROS = 1, /**< entries blocked in row-major order
                                  (distrt_spmat_create_nonzeros); an
                                  order-3 tensor's (i, j) fibers */
  DISTRT_SPMAT_ENTRIES = 2   /**< an order-3 tensor's entries blocked in
                                  row-major order, fibers split between
                                  processes (distrt_spmat_in_partition) */
};

/** The generators of distrt_spmat_generate. */
enum {
  DISTRT_GEN_BANDED = 0,  /**< param: band width (odd) */
  DISTRT_GEN_RMAT = 1,    /**< param: edges per row (requires rows == cols) */
  DISTRT_GEN_UNIFORM = 2  /**< param: draws per row */
};

#endif /* DISTRT_ABI_H */
