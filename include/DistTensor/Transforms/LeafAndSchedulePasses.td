//===- LeafAndSchedulePasses.td - leaf and schedule passes -*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The passes on sparse leaf functions (dist-overwrite-leaves,
// dist-restrict-leaves, dist-reassociate-leaves), dist-auto-schedule and
// dist-insert-redistributions; included at the end of Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_TRANSFORMS_LEAFANDSCHEDULEPASSES_TD
#define DIST_TRANSFORMS_LEAFANDSCHEDULEPASSES_TD

include "mlir/Pass/PassBase.td"

def DistOverwriteLeaves : Pass<"dist-overwrite-leaves", "ModuleOp"> {
  let summary = "Let marked leaf functions set their output instead of "
                "adding to it";
  let description = [{
    A function with the attribute `dist.overwrite = N` (an integer: the
    index of a 1-D floating-point memref argument) promises its callers
    that it sets that argument (`y = ...`) rather than adding to it
    (`y += ...`), so they need not zero it first. `dist-materialize-spmd`
    gives the attribute to the first sparse leaf of a product whose
    statement assigns (`=`) with rows blocked (`__dist_sparse_*_set`):
    the leaf covers every row of the process's output block.

    The leaves accumulate (their `linalg.generic` adds into the output), and
    the upstream sparsifier makes a CSR row's sum a loop that starts from
    the loaded output element. When every access to the output has that
    shape (one load of `y[i]` in a row loop from 0 with step 1 at the top of
    the function, which starts the row's sum, and one store of the sum to
    `y[i]`), this pass starts the sum from zero instead. Otherwise (SpMM's
    loops, or anything else) it zeroes the output with a loop at the
    function's entry. Either way the attribute is removed, and the function
    then sets its output.

    `dist-to-llvm` runs the pass after `sparsification-and-bufferization`.

    ```mlir
    func.func private @leaf(..., %y: memref<?xf64>)
        attributes {dist.overwrite = 5 : i64} {
      scf.for %i = %c0 to %c32 step %c1 {
        %init = memref.load %y[%i] : memref<?xf64>   // becomes 0.0
        %sum = scf.for ... iter_args(%acc = %init) -> (f64) { ... }
        memref.store %sum, %y[%i] : memref<?xf64>
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DistAutoSchedule : Pass<"dist-auto-schedule", "ModuleOp"> {
  let summary = "Choose the schedule of `schedule auto` computations from "
                "a calibrated cost model";
  let description = [{
    Every `dist.compute ... schedule auto` gets a schedule: the cheapest,
    by the alpha-beta-gamma model of one call per process, of the
    candidates that the verifier and the lowering accept. The candidates,
    per ordered choice of one statement variable per grid dimension, are
    DISTAL Fig. 9's families: every operand moved once (owner computes, or
    Johnson's with a distributed summed variable), the summed loop split
    into chunks or divided into parts with the inputs moved per step
    (SUMMA, COSMA's steps), the parts rotated over the distributed loops
    (Cannon, PUMMA on 2-D grids, 2.5D over the first two of a 3-D grid's),
    each with and without a GEMM leaf where the
    statement is a product of two matrices (an MTTKRP, gemv or dot leaf
    where it has that form), the stepping ones also with `overlap(off)`
    under `max-memory`; and the one-sided product (`stationary(auto)`)
    where the statement is one. Their number depends
    on the statement and the number of grid dimensions, not on the number
    of processes.

    The model (docs/autoschedule.md): compute = the larger of local
    iterations x flops per iteration x gamma (the cost file's
    `gamma.gemm.N` at the leaf's size with a GEMM or MTTKRP leaf,
    `gamma.gemv` / `gamma.dot` for those leaves, `gamma.vec` for scalar
    loops that vectorize, `gamma.loop` otherwise) and the elements of the
    tensors' local regions x `beta.stream` (a roofline), plus
    `alpha.leaf` per leaf call; the one-sided product's own estimate adds
    `alpha.onesided` per call; each transfer the
    communication analysis derives costs, per step, ceil(log2 p) alpha.K +
    n beta.K for a collective of kind K over p processes (n scaled by
    (p - 1) / p for allgather and reduce-scatter), alpha + n beta for a
    shift or point-to-point step, and (P - 1) alpha + n beta for the
    general exchange. Where dist-insert-redistributions will redistribute
    a tensor to the layout the candidate implies (a general exchange
    otherwise), the planner's predicted seconds of the redistribution (and
    back, for the output) are added and the tensor is then taken to be
    local. The transfers inside a time loop, which the lowering
    double-buffers, hide behind the previous step's arithmetic:
    min(compute, their time) x (steps - 1) / steps is subtracted. Keys
    missing from the cost file fall back to
    `alpha`, `beta` and `gamma`, and those to the defaults (1e-6 s, 1e-9
    s per element, 1e-10 s per flop; `gamma.loop` 1e-9, `beta.stream`
    2.5e-10, `alpha.leaf` 5e-8).

    With `grid-shapes` (on by default) the candidates are also tried on
    grids of other shapes with the same number of processes: [P], the two
    most nearly square 2-D and the two most nearly cubic 3-D shapes. There
    every tensor takes the layout the candidate's distribution gives it (a
    dimension indexed by a distributed variable blocked over its axis, the
    others blocked over the axes left, in order), the redistributions onto
    the grid (and the output's back) are costed with the planner, and when
    such a candidate wins the pass adds a `dist.grid @auto_grid_...`,
    temporaries and the redistributions, with a remark.

    The output must be on a one-level machine (`dist-to-llvm` runs the
    pass after dist-flatten-machines); sparse computations are rejected by
    the verifier under `schedule auto`. When no candidate fits, or none
    fits `max-memory`, the computation is an error that says so.

    ```mlir
    dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
        schedule auto : !A, !B, !C
    ```
  }];
  let options = [
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "The calibrated model (benchmarks/calibrate writes it); the "
           "defaults without one">,
    Option<"maxMemory", "max-memory", "int64_t", /*default=*/"0",
           "Most bytes a process may hold for one computation (its tiles "
           "and transfer buffers); 0: no cap">,
    Option<"report", "report", "unsigned", /*default=*/"0",
           "Print the first N candidates (a remark each: the predicted "
           "time split into compute, latency, bandwidth, redistributions "
           "and the communication hidden behind arithmetic, and the "
           "schedule)">,
    Option<"insertRedistributions", "insert-redistributions", "bool",
           /*default=*/"true",
           "Cost the redistributions dist-insert-redistributions will put "
           "around a computation (dist-to-llvm passes its own setting)">,
    Option<"gridShapes", "grid-shapes", "bool", /*default=*/"true",
           "Also try grids of other shapes with the same number of "
           "processes ([P], the two most nearly square 2-D and the two most "
           "nearly cubic 3-D shapes), the tensors redistributed onto them "
           "and the output back, those redistributions costed">,
    Option<"pick", "pick", "unsigned", /*default=*/"1",
           "Write the candidate ranked N by predicted time instead of the "
           "cheapest (1); for validation sweeps that build and time every "
           "candidate (benchmarks/autoschedule/sweep.py)">,
  ];
}

def DistRestrictLeaves : Pass<"dist-restrict-leaves", "ModuleOp"> {
  let summary = "Give marked leaf functions' output pointers llvm.noalias";
  let description = [{
    A leaf function whose output no other argument reaches carries
    `dist.restrict = {args = array<i64: N, ...>, type = T}`: the numbers of
    those memref arguments, and the function's type `T` when it was marked.
    `func-to-llvm` expands every memref argument into a descriptor's
    allocated pointer, aligned pointer, offset, sizes and strides, and drops
    the argument attributes of memref arguments, `llvm.noalias` among them.
    This pass runs on the `llvm.func` the function became: it finds each
    marked argument's aligned pointer from `T` (a memref of rank r is 3 + 2r
    arguments, anything else one) and gives it `llvm.noalias`, then removes
    the marker. LLVM may then keep an output row in registers across a
    sparse leaf's inner loop instead of loading and storing it for every
    entry, because stores to it cannot change the inputs.

    `dist-materialize-spmd` marks the outputs of the sparse leaves whose
    operands it knows apart (SpMV, SpMM, SpMTTKRP; where two of the
    computation's tensors could be one tensor passed twice, it also checks
    that at run time with `dist.check_distinct`). `dist-to-llvm` runs this
    pass after the conversion to the LLVM dialect.

    A marker that does not fit the function (a number out of range or not
    a memref in `T`, or a signature that is not `T`'s expansion) is an
    error, and so is one on a function that was not converted.

    ```mlir
    llvm.func @leaf(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64,
                    %a4: i64, %a5: i64)
        attributes {dist.restrict = {args = array<i64: 0>,
                                     type = (memref<?xf64>, index) -> ()}}
    // becomes %a1: !llvm.ptr {llvm.noalias}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def DistReassociateLeaves : Pass<"dist-reassociate-leaves", "ModuleOp"> {
  let summary = "Let the sums of marked leaf functions be reassociated";
  let description = [{
    Gives every floating-point `arith.addf` and `arith.mulf` in a function
    that carries the unit attribute `dist.reassociate` the fast-math flags
    `reassoc` and `contract`, keeping the flags it already has. The backend
    may then split a leaf's sums over several accumulators and vector lanes
    and fuse multiply-adds; the results differ from the statement's order
    of summation by rounding only, as a distributed sum's do anyway.

    `dist-materialize-spmd` marks the sparse leaves
    (`__dist_sparse_*`): the upstream sparsifier rebuilds their loops and
    drops the flags the `linalg.generic` body carried, so `dist-to-llvm`
    runs this pass after `sparsification-and-bufferization`. Without the
    flags a sparse row's sum is one chain of dependent additions, which
    bounds the product of a matrix that fits in cache by the latency of
    `addsd`. Functions without the attribute are left alone.

    ```mlir
    func.func private @leaf(...) attributes {dist.reassociate} {
      ... %s = arith.addf %a, %b : f64   // becomes fastmath<reassoc,contract>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def DistVectorizeLeafGathers
    : Pass<"dist-vectorize-leaf-gathers", "ModuleOp"> {
  let summary = "Sum the indirect products of marked leaves a vector at a "
                "time, from scalar loads";
  let description = [{
    In a function marked `dist.vectorize_gathers` and `dist.reassociate`
    (`dist-materialize-spmd` marks the SpMV and SpMM leaves so), an
    innermost `scf.for` with step 1 that sums into one floating-point
    `iter_args` value (`%acc' = arith.addf %acc, %t`, `%t` independent of
    `%acc`) and whose body reads through an index it loaded (`x[crd[p]]`,
    the gather of a CSR row's product) becomes an `scf.if` on the number
    of iterations: fewer than `2 * width` run the original loop (for such
    short sums the vector path's setup and reduction cost more than they
    save), the others

    - a loop over the first `(ub - lb) / width * width` iterations in steps
      of `width`: the body cloned once per lane, its `width` terms put in a
      vector (`vector.from_elements`) and added to a vector accumulator;
    - `vector.reduction <add>` of the accumulator into the loop's initial
      value;
    - a loop over the last `(ub - lb) mod width` iterations, as before.

    The body may hold only loads and side-effect-free operations, without
    regions; other loops are left alone. The LLVM backend then loads the
    gathered elements with scalar loads, the contiguous ones (the values)
    with one vector load, and multiplies and adds a vector at a time, with
    `width` sums in flight instead of one dependent chain. The SpTTV and
    SDDMM leaves are not marked: measured, SpTTV's fibers over an R-MAT-like
    tensor ran 12 % slower this way at 2 ranks. Left to itself,
    its loop vectorizer turns such a loop into hardware gathers, which on
    some x86 processors (AMD Zen 4's 512-bit `vgatherqpd`) are slower than
    the scalar loop for rows of a few dozen entries; see docs/sparse.md
    ("Leaf code") for the measurements. The sums are reassociated, which
    the `dist.reassociate` mark allows.

    The rewritten function gets the target feature `prefer-no-gather`
    (`target_features`, what clang's `-mno-gather` sets for a whole file),
    so that the backend keeps the lanes' scalar loads instead of merging
    them into a gather.

    Which is faster depends on x: scalar loads win while the x a call reads
    stays in the core's cache, or is read in order (rows of 8-40 entries
    over an x of up to a few hundred KB: 1.3-1.8x; a banded matrix's x of
    8 MB: 5-8 %), the original loop with a software prefetch when it is
    large and read at random (an R-MAT matrix's x of 4-8 MB: the vector
    sums 15-25 % slower; on x86-64 the backend keeps that loop scalar, one
    chain and a prefetch per entry). So when every rewritten loop of a
    function `@f` gathers from one of its arguments (directly or through views) and
    `gather-above` is not 0, the pass keeps two copies: `@f__vector`
    (rewritten, marked) and the original loops, left to the backend's
    vectorizer: `@f__prefetch` when the gather indices are loaded from one
    argument (`crd[p]`, 1-D, at the loop's induction variable) and
    `prefetch-distance` D is not 0 (default 128: before each gathered load,
    `memref.prefetch` of the element gathered D entries later,
    `x[crd[min(p + D, n - 1)]]`, n the index buffer's extent), else
    `@f__gathers`. `@f` becomes a function of the same type that calls the
    original loops when x holds more than `gather-above` bytes (default
    1 MiB, a core's L2 cache on current x86 server parts) and, where the
    indices come from one argument, 32 consecutive pairs of index entries
    sampled from the middle of that buffer differ, more than 16 of them, by
    a cache line of x (64 bytes) or more; `@f__vector` otherwise. A
    function whose sums gather from a buffer of its own is rewritten in
    place.

    `width` 0 or 1 leaves every loop alone. `dist-to-llvm` runs the pass
    after `dist-overwrite-leaves`, with its `leaf-vector-width` (default 4)
    `leaf-gather-above` (default 1048576) and `leaf-prefetch-distance`
    (default 128) options.

    ```mlir
    %s = scf.for %p = %lb to %ub step %c1 iter_args(%acc = %init) -> (f64) {
      %j = memref.load %crd[%p] : memref<?xindex>
      %v = memref.load %val[%p] : memref<?xf64>
      %x = memref.load %xs[%j] : memref<?xf64>
      %t = arith.mulf %v, %x : f64
      %a = arith.addf %acc, %t : f64
      scf.yield %a : f64
    }
    // becomes: scf.if (ub - lb >= 8): scf.for %q = %lb to %mid step %c4
    // iter_args(vector<4xf64>), vector.reduction <add>, scf.for %k = %c0
    // to %rem (the rest); else: the loop above
    ```
  }];
  let options = [
    Option<"width", "width", "unsigned", /*default=*/"4",
           "Lanes of the vector accumulator (0 or 1: leave the loops alone)">,
    Option<"gatherAbove", "gather-above", "uint64_t", /*default=*/"1048576",
           "Bytes of the gathered argument above which a call whose "
           "sampled indices look scattered runs the original loops, left "
           "to the backend's vectorizer (0: always the vector sums)">,
    Option<"prefetchDistance", "prefetch-distance", "unsigned",
           /*default=*/"128",
           "Entries ahead that the original loops prefetch the gathered "
           "element (0: no prefetch)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def DistInsertRedistributions
    : Pass<"dist-insert-redistributions", "ModuleOp"> {
  let summary = "Redistribute tensors to the layouts their schedules need";
  let description = [{
    For every `dist.compute`, runs the communication analysis; a tensor
    that would move with the general exchange is given the layout the
    schedule's `distribute` implies (each dimension indexed by a
    distributed loop made by `divide` blocked over that loop's grid
    dimension, the other dimensions whole): a `dist.alloc` and a
    `dist.redistribute` are inserted before the computation, which then
    reads the copy; for the output the copy is also redistributed back
    after it. The insertion is kept only if the analysis of the rewritten
    computation no longer needs the general exchange for that tensor, and
    is reported:

    ```
    remark: inserted a redistribution of 'C' to #dist.layout<@m, [(0)
            blocked, (1) blocked]>: its schedule needs it there (it moved
            with the general exchange; now C: local, once (1 step, up to
            16 elements))
    ```

    A layout whose largest tile would be larger than the tensor's own (one
    that replicates a dimension the tensor keeps partitioned) is skipped:
    the pass never takes more memory per process. Schedules that distribute
    otherwise (rotate, collapse, several grid dimensions per variable) are
    left alone. `dist-to-llvm` runs it unless `insert-redistributions=0`.
  }];
}

#endif // DIST_TRANSFORMS_LEAFANDSCHEDULEPASSES_TD
