//===- Passes.td - dist transformation passes --------------*- tablegen -*-===//

#ifndef DIST_TRANSFORMS_PASSES_TD
#define DIST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistMaterializeSPMD : Pass<"dist-materialize-spmd", "ModuleOp"> {
  let summary = "Turn distributed tensors and scheduled statements into SPMD code";
  let description = [{
    Rewrites every `dist.alloc`, `dist.fill`, `dist.compute` and
    `dist.redistribute` into the code each rank runs:

    - a distributed tensor becomes the rank's local tile, a flat
      `memref<?xT>` sized for the largest tile of its layout;
    - a computation applies its schedule (`Schedule.h`): distributed loops
      become the rank's grid coordinates, the other loops `scf.for` loops;
      at the loop each tensor is communicated at, the box of the tensor the
      rank needs under that loop is fetched into a buffer allocated once
      (`distrt_fetch_box`, the general exchange), and the output's partial
      results are accumulated into the owners' tiles
      (`distrt_accumulate_box`); tensors communicated at a distributed loop
      (and tensors with no communicate command) are fetched once;
    - `substitute(..., gemm)` leaves become `distrt_gemm_t_f32/f64` calls on
      the buffers, and `substitute(..., mttkrp)` a Khatri-Rao product and a
      GEMM; a substitution that cannot apply (operands whose last
      dimensions do not fit a row-major GEMM, an integer element type,
      leaf ranges that are not whole intervals) is an error, or scalar
      loops with a warning under `leaf-fallback`;
    - `dist.redistribute` follows the plan of `dist-plan-redistribution`
      when both layouts have mode tuples (blocked, cyclic or block-cyclic
      dimensions, no skew) on one grid, or on two grids of the same size
      whose axes nest (then on a grid of their common refinement, declared
      as `dist.grid @__dist_refined_N` if none exists): one runtime call
      per step
      (`distrt_redist_slice`, `distrt_redist_allgather`,
      `distrt_redist_permute`, `distrt_redist_alltoall`,
      `distrt_redist_kind` where blocks change, and for elemental-cyclic
      layouts fixed to a face `distrt_redist_gather` / `_bcast` / `_scatter`, each
      a collective over the step's grid axes) through intermediate tiles;
      `sum [...]` redistributions become `distrt_redist_reduce_scatter` /
      `_allreduce` / `_reduce` over the freed grid axes; other pairs,
      and every pair with `redistribution=general`, become the general
      exchange `distrt_redistribute`. With `check`, each redistribution is
      compared with its gathered source.

    With `check`, every computation is followed by a reference computed on
    rank 0 from the inputs gathered before it, by the runtime's own
    evaluator of the unscheduled statement (`distrt_reference_*`, which
    shares no code with this lowering); every copy of the output on every
    process is compared with it and the maximum relative error is printed
    (`distrt_check_result`), and every copy of every input must be
    unchanged (`distrt_check_unchanged`). With
    `timing`, the time of each computation is printed: the clock runs from
    a barrier over the grid before it to a barrier after it, and the
    maximum over the ranks is reported (the computation's makespan, also
    when its processes share cores and do not communicate).

    With `overlap` (the default), an input that moves at every step of a
    sequential time loop (a broadcast, a shift after its alignment, an
    allgather or a point-to-point permutation) is double buffered
    (`dist-double-buffer`): its step 0 transfer starts before the loop,
    and step s waits for its own transfer, starts the non-blocking
    transfer of step s + 1 into the other buffer (`dist.start_broadcast`,
    `dist.start_shift`, `dist.start_allgather`, `dist.start_permute`) and
    then computes, so communication proceeds while the leaf runs.
    `overlap=false` keeps every transfer blocking, for comparison. The
    schedule command `overlap(off)` or `overlap(on)` decides for one
    computation.

    The pass runs, in order, `dist-instrument` (with `check` or
    `timing`), `dist-lower-redistributions`, `dist-lower-computations`,
    `dist-double-buffer` and `dist-tensors-to-tiles`, each of which can
    also be run alone.

    Schedules that cannot be lowered are rejected with a message that names
    the tensor or loop and the reason: distributed loops that are not
    outermost, a distribution that does not match the tensors' grid,
    tensors on different grids, hierarchical layouts.
  }];
  let options = [
    Option<"check", "check", "bool", /*default=*/"false",
           "Compare every computed output with a reference on rank 0">,
    Option<"timing", "timing", "bool", /*default=*/"false",
           "Print the time of every computation (between two barriers "
           "over its grid; the maximum over the ranks)">,
    Option<"tolerance", "tolerance", "double", /*default=*/"-1.0",
           "Relative error accepted by check (default: 1e-12 for f64, "
           "1e-4 for f32, 0 for integers)">,
    Option<"redistribution", "redistribution", "std::string",
           /*default=*/"\"balanced\"",
           "How dist.redistribute is lowered: 'balanced' (the planner's "
           "collectives where the thesis' rules apply, else the general "
           "exchange) or 'general' (always the general exchange)">,
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "Measured alpha/beta for the redistribution planner, and gamma "
           "for the one-sided products' choice (written by "
           "benchmarks/calibrate)">,
    Option<"overlap", "overlap", "bool", /*default=*/"true",
           "Double buffer time-stepped inputs: start the next step's "
           "transfer non-blocking before computing the current step">,
    Option<"relaxMemoryBound", "relax-memory-bound", "bool",
           /*default=*/"false",
           "Let dist.redistribute plans pass through layouts that hold more "
           "per process than the larger of the source and destination "
           "tiles (as dist-plan-redistribution{relax-memory-bound})">,
    Option<"leafFallback", "leaf-fallback", "bool", /*default=*/"false",
           "Where a substitute command cannot apply (operands that do not "
           "fit the kernel, an integer type), use scalar "
           "loops with a warning instead of failing">,
    Option<"device", "device", "std::string", /*default=*/"\"host\"",
           "Where dist-device-memory will put the tiles: 'host', 'gpu', or "
           "'auto' (device memory when a machine is made of GPUs); sparse "
           "products on device tiles become dist.sparse_mul_add">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::sparse_tensor::SparseTensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def DistInstrument : Pass<"dist-instrument", "ModuleOp"> {
  let summary = "Add check and timing code around computations and redistributions";
  let description = [{
    The first step of `dist-materialize-spmd` (with `check` or `timing`),
    on dist IR: around every `dist.compute` and `dist.redistribute` it
    adds SPMD code on the local tiles (`dist.local_tile`) of their tensors.

    With `check`, the inputs of a computation (and its output for `+=`)
    are gathered whole to rank 0 before it, and after it the runtime's own
    evaluator of the unscheduled statement computes a reference there
    (which shares no code with the lowering); every copy of the output on
    every process is compared with it and the maximum relative error is
    printed, and every copy of every input must be unchanged. A
    redistribution's destination must hold exactly its gathered source
    (summed over the `sum` dimensions).

    With `timing`, the time of each computation is printed: the clock runs
    from a barrier over the grid before it to a barrier after it, and the
    maximum over the ranks is reported. So is the time of each
    redistribution, under the name
    `redistribute SHAPE SOURCE-LAYOUT -> DEST-LAYOUT` (`(sum)` for a
    partial sum), including those `dist-insert-redistributions` and
    `dist-auto-schedule` added; the barriers are over the destination's
    grid (a source on another grid has the same processes).
  }];
  let options = [
    Option<"check", "check", "bool", /*default=*/"false",
           "Compare every computed output with a reference on rank 0">,
    Option<"timing", "timing", "bool", /*default=*/"false",
           "Print the time of every computation (between two barriers "
           "over its grid; the maximum over the ranks)">,
    Option<"tolerance", "tolerance", "double", /*default=*/"-1.0",
           "Relative error accepted by check (default: 1e-12 for f64, "
           "1e-4 for f32, 0 for integers)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def DistLowerRedistributions
    : Pass<"dist-lower-redistributions", "ModuleOp"> {
  let summary = "Lower dist.redistribute into SPMD redistribution steps";
  let description = [{
    The first step of `dist-materialize-spmd`: every `dist.redistribute`
    becomes the steps of its plan on the local tiles of its source and
    destination (`dist.local_tile`): the planner's collectives where the
    thesis' rules apply (`dist-plan-redistribution`), partial-sum
    reductions for `sum [...]`, else the general exchange. See
    `dist-materialize-spmd` for the plans and the options.
  }];
  let options = [
    Option<"redistribution", "redistribution", "std::string",
           /*default=*/"\"balanced\"",
           "'balanced' (the planner's collectives where they apply) or "
           "'general' (always the general exchange)">,
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "Measured alpha/beta for the redistribution planner">,
    Option<"relaxMemoryBound", "relax-memory-bound", "bool",
           /*default=*/"false",
           "Let plans pass through layouts that hold more per process than "
           "the larger of the source and destination tiles">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def DistLowerComputations : Pass<"dist-lower-computations", "ModuleOp"> {
  let summary = "Lower scheduled dist.compute statements into SPMD loop nests";
  let description = [{
    The second step of `dist-materialize-spmd`: every `dist.compute`
    becomes the loop nest its schedule gives, on the local tiles of its
    tensors (`dist.local_tile`): each tensor's transfers at the loop level
    the communication analysis found, the buffers they fill, and the leaf
    (a library kernel, a `linalg.generic` or scalar loops). Every transfer
    is blocking; the sequential time loops are tagged `dist.time_loop`
    (and `dist.overlap = true/false` where the schedule has an `overlap`
    command) for `dist-double-buffer`. See `dist-materialize-spmd` for the
    options.
  }];
  let options = [
    Option<"leafFallback", "leaf-fallback", "bool", /*default=*/"false",
           "Use scalar loops with a warning where a substitute command "
           "cannot apply">,
    Option<"device", "device", "std::string", /*default=*/"\"host\"",
           "Where the tiles will live: 'host', 'gpu' or 'auto' (as "
           "dist-materialize-spmd)">,
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "Measured alpha/beta/gamma for the one-sided lowering's choice "
           "of the stationary tensor (written by benchmarks/calibrate)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::sparse_tensor::SparseTensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def DistDoubleBuffer : Pass<"dist-double-buffer"> {
  let summary = "Double buffer the transfers of time loops (overlap)";
  let description = [{
    A transformation on SPMD ops, run by `dist-materialize-spmd` after
    `dist-lower-computations`. In every `scf.for` tagged `dist.time_loop`,
    each blocking transfer that fills a buffer allocated outside the loop
    at every step (`dist.broadcast`, `dist.allgather`, `dist.permute`, or a
    shift: `scf.if` on the first step with the alignment, else
    `dist.shift`) is software pipelined: a second buffer is allocated
    beside the first; the first step's transfer starts before the loop
    (`dist.start_broadcast`, `dist.start_allgather`,
    `dist.start_permute`; a shift's alignment stays blocking there); each
    step waits for its own transfer (`dist.wait`) where the blocking
    transfer was, starts the next step's into the other buffer, and reads
    its own. The request and the two buffers are the loop's iteration
    arguments and swap at every step; the last step yields
    `dist.null_request`. The ops before the transfer that compute its
    operands or fill its buffers (the root's `dist.copy_box`, the piece of
    an allgather, the box sent to a permutation's partner) are repeated
    with the next step's induction variable.

    ```mlir
    scf.for %k = %c0 to %c4 step %c1 {
      scf.if %isRoot { dist.copy_box %tile[...] [...] into %buf ... }
      dist.broadcast %view on @m axes [1] root %root : memref<?xf64>
      dist.gemm ...  // reads %buf
    } {dist.time_loop}
    ```

    becomes

    ```mlir
    scf.if %isRoot0 { dist.copy_box %tile[...] [...] into %buf ... }
    %r0 = dist.start_broadcast %view0 on @m axes [1] root %root0 : memref<?xf64>
    %res:3 = scf.for %k = %c0 to %c4 step %c1
        iter_args(%r = %r0, %cur = %buf, %next = %buf2)
        -> (!dist.request, memref<512xf64>, memref<512xf64>) {
      dist.wait %r
      %rn = scf.if %hasNext -> (!dist.request) {
        scf.if %isRootNext { dist.copy_box ... into %next ... }
        %s = dist.start_broadcast %viewNext ... : memref<?xf64>
        scf.yield %s : !dist.request
      } else {
        %none = dist.null_request
        scf.yield %none : !dist.request
      }
      dist.gemm ...  // reads %cur
      scf.yield %rn, %next, %cur : !dist.request, memref<512xf64>, memref<512xf64>
    } {dist.time_loop}
    ```

    A transfer is transformed only when that is legal: the ops moved to
    the step before may only compute, copy boxes into its buffers and read
    the grid; nothing else in the loop may write what they read (the
    tiles); the loop may only read the filled buffer, after the transfer;
    the buffers are used nowhere else but their `dist.check_alloc` and
    `memref.dealloc`. A transfer of that shape that fails a check stays
    blocking, with a remark that says why. Loops inside `scf.parallel`
    and loops of fewer than two steps are left alone.

    `overlap` (default on) decides for time loops without a
    `dist.overlap` attribute; the schedule command `overlap(on)` /
    `overlap(off)` sets it for one computation.
  }];
  let options = [
    Option<"overlap", "overlap", "bool", /*default=*/"true",
           "Double buffer the time loops of computations whose schedule "
           "has no overlap command">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DistTensorsToTiles : Pass<"dist-tensors-to-tiles", "ModuleOp"> {
  let summary = "Replace distributed tensors by the running process's tiles";
  let description = [{
    The last step of `dist-materialize-spmd`, a type conversion: every
    `!dist.tensor` value (function arguments, call operands, `dist.alloc`
    results) becomes the process's local tile, a flat `memref<?xT>` sized
    for the largest tile of its layout; `dist.alloc` allocates it (and
    frees it at the end of its block), `dist.fill`, `dist.load` and
    `dist.store` become operations on it, and `dist.local_tile` folds into
    it. Every function that uses distributed tensors starts the runtime,
    and `@main` ends it before it returns. Computations and
    redistributions must have been lowered before (by
    `dist-lower-computations` and `dist-lower-redistributions`).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def DistReportCommunication : Pass<"dist-report-communication", "ModuleOp"> {
  let summary = "Report how every tensor of every computation moves";
  let description = [{
    Runs the communication analysis that `dist-materialize-spmd` lowers
    with, and reports one remark per tensor of every `dist.compute`: its
    pattern (local, broadcast over grid axes, systolic shift along an axis
    after an initial alignment, reduce or allreduce of partial results over
    grid axes, or the general exchange), where it happens (once, or at each
    iteration of which loop), the number of steps and the largest box
    moved. Computations that cannot be lowered are reported as errors.

    ```
    dist-opt --dist-report-communication examples/distal/summa.mlir
    remark: B: broadcast over grid axes [1] from a root that changes with
            the step, at each iteration of 'ko' (4 steps, up to 512 elements)
    ```

    A tensor that moves with the general exchange gets a suggestion when
    the layout its schedule implies (each dimension indexed by a
    distributed loop blocked over that loop's grid axis, the others whole)
    makes the transfer local or a collective:

    ```
    remark: A: general, once (1 step, up to 32 elements); suggestion: give
            'A' the layout #dist.layout<@m, [(0) blocked, ()]> (then: local)
    ```

    `quiet` prints only the report: the remarks without the
    `note: see current operation` dumps (whatever
    `--mlir-print-op-on-diagnostic` says), and `dist-opt` does not print
    the module (unless `-o` names a file). `general-only` reports only the
    tensors that move with the general exchange, one remark each with the
    reason and the suggestion (or that no layout avoids it under this
    schedule), and skips computations that cannot be lowered (the lowering
    reports those); `dist-run` uses it for its warnings.

    A one-sided product (docs/onesided.md) gets one remark: the stationary
    tensor, who chose it, and the alpha-beta-gamma model's estimate for
    each choice (seconds, split into its alpha, beta and gamma parts, and
    the messages, words and flops behind them), with alpha, beta and gamma
    from `cost-file` (the planner's cost file) or the defaults.
  }];
  let options = [
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "Print only the report: no operation notes, and dist-opt does "
           "not print the module unless -o names a file">,
    Option<"generalOnly", "general-only", "bool", /*default=*/"false",
           "Report only the tensors that move with the general exchange "
           "(why, and the layout that avoids it); skip computations that "
           "cannot be lowered">,
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "Measured alpha/beta/gamma (benchmarks/calibrate) for the "
           "one-sided products' cost model">
  ];
}

def DistPlanRedistribution : Pass<"dist-plan-redistribution", "ModuleOp"> {
  let summary = "Plan every redistribution with the thesis' collectives";
  let description = [{
    For every `dist.redistribute` between elemental-cyclic layouts (the
    thesis' mode tuples) on one mesh, finds the single collective the
    thesis' rules give (allgather, permutation with its per-mode stride
    condition, all-to-all, or a local slice that adds replicated modes) or,
    when none applies, the cheapest sequence of single-mode steps under the
    alpha-beta cost model, and reports it with its predicted cost:

    ```
    remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes
            [2, 3] -> [(0), (1)] (1.4e-06 s); predicted 1.4e-06 s
    ```

    Blocked and block-cyclic dimensions are planned on block indices (a
    block-cyclic(b) dimension is elemental-cyclic over its blocks; blocked
    is block-cyclic with b = ceil(n/Q)); a dimension whose block differs
    between the two layouts adds one `redistribute-kind` step, an
    all-to-all over the modes of the dimensions whose block changes,
    printed with the blocks as ` b=K`. Layouts on two one-level cpu grids
    of the same size whose axes nest are rewritten on the grids' common
    refinement (same ranks, same elements) and planned there. Other layouts
    (skewed, several levels, blocked or block-cyclic and fixed to a face,
    grids whose axes do not nest) are reported as using the general
    exchange. `dist-materialize-spmd`
    executes the same plan (with its default cost model unless given
    `cost-file`); see docs/redistribution.md.

    Memory bound: no layout a plan passes through holds more elements per
    process than the larger of the source and destination tiles (the rule
    `dist-insert-redistributions` applies to the copies it inserts). For
    small tensors the alpha-beta model alone prefers fewer, larger
    messages (an allgather that holds several times a process's data, then
    a local slice) to the thesis' balanced all-to-alls and permutations;
    `relax-memory-bound` allows such plans.
  }];
  let options = [
    Option<"alpha", "alpha", "double", /*default=*/"1e-6",
           "Seconds per message (latency) of the cost model">,
    Option<"beta", "beta", "double", /*default=*/"1e-9",
           "Seconds per element (inverse bandwidth) of the cost model">,
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "File with measured 'alpha X' and 'beta Y' lines (written by "
           "benchmarks/calibrate); overrides alpha and beta">,
    Option<"relaxMemoryBound", "relax-memory-bound", "bool",
           /*default=*/"false",
           "Let plans pass through layouts that hold more per process than "
           "the larger of the source and destination tiles (the cheapest "
           "plan under alpha-beta, whatever its memory)">
  ];
}

def DistSimplifyRedistributions
    : Pass<"dist-simplify-redistributions", "ModuleOp"> {
  let summary = "Fold, compose and fuse redistributions and collectives";
  let description = [{
    Applies three rewrites (the thesis' cross-contraction optimisations):

    - `dist.redistribute %a into %b` between identical layouts disappears
      when `%b` is a `dist.alloc` that is only read afterwards and `%a` is
      not written while `%b` is used: the uses of `%b` read `%a`;
    - `redistribute %x into %m` followed by `redistribute %m into %y`, with
      `%m` a `dist.alloc` used by nothing else and `%x` not written in
      between, becomes `redistribute %x into %y` (with the first one's
      `sum`, if any: a sum followed by a copy is one sum, so a
      reduce-scatter then allgather of partial sums becomes an allreduce);
    - `dist.reduce_scatter %in into %mid` followed by `dist.allgather %mid
      into %out` over the same grid axes, with `%mid` used by nothing else
      and no op with memory effects in between, becomes `memref.copy %in,
      %out` and `dist.allreduce %out` (one collective instead of two; the
      unused `%mid` is left to the canonicalizer).

    Writes are found from the ops' declared memory effects; an op that
    declares none counts as writing every operand. Only these rewrites are
    applied (a walk repeated until nothing changes; no folding, no dead-code
    elimination). `dist-to-llvm` runs this pass before and after
    `dist-materialize-spmd`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def DistImportShard : Pass<"dist-import-shard", "ModuleOp"> {
  let summary = "Import upstream `shard` annotations as dist grids, layouts "
                "and computations";
  let description = [{
    Converts programs annotated with upstream MLIR's `shard` dialect (the
    input of `--sharding-propagation` / `--shard-partition`) into dist IR
    (docs/interop.md, "Importing upstream `shard` IR"):

    - `shard.grid @g(shape = AxB...)` becomes `dist.grid @g [A, B, ...]`
      (any rank; a dynamic extent is an error).
    - Every tensor value of a function that holds `shard` operations gets
      the layout of its sharding: `split_axes[d] = [a, b, ...]` deals
      dimension d out in blocks over grid axes a, b, ... (upstream's shard
      index, a slowest: dist's mode tuple `(..., b, a) blocked`); grid axes
      no dimension uses replicate. A value is annotated by the
      `shard.shard` that defines it, else by its result annotation
      (`shard.shard %v to %s`), else by the common sharding of its
      `annotate_for_users` uses; an unannotated value is replicated.
      `halo_sizes` keep the blocked layout (dist moves the elements each
      computation reads, so halos need no storage); `sharded_dims_offsets`
      are accepted when they are dist's blocks (`ceil(n/p)` each).
    - A `shard.shard` whose sharding differs from its source's becomes a
      `dist.alloc` and a `dist.redistribute` (upstream's resharding).
    - Tensor arguments become `!dist.tensor` arguments; each tensor result
      becomes an extra destination argument after them (dist is
      destination-passing) that the function writes; the results go.
    - `linalg.matmul` (and any linalg op, `linalg.generic` included, whose
      indexing maps are projected permutations and whose body is `+`, `-`,
      `*`, negation and constants of its operands; a reduction body must be
      the output plus a product), element-wise `arith` ops on tensors,
      `tensor.empty` and `linalg.fill` become `dist.alloc` and
      `dist.compute`. A float matrix product gets the one-sided schedule
      `[stationary(auto), prefetch(2)]` (the cost model picks the tensor
      that stays); every other statement an owner-computes schedule that
      distributes the output's dimensions as its layout does (a grid axis
      the output is replicated on is computed split and then allgathered).

    Anything else (other ops, element types other than f32, f64, i32 and
    i64, dynamic shapes, dynamic halos or offsets, uneven offsets, several
    blocks, control flow, non-tensor results) is a located error naming
    it. `dist-to-llvm` runs this pass first; what it leaves is refused by
    `dist-reject-foreign-annotations`.
  }];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

def DistFlattenMachines : Pass<"dist-flatten-machines", "ModuleOp"> {
  let summary = "Lower machines of nodes to one-level grids with node axes";
  let description = [{
    Rewrites every hierarchical machine whose outer levels are `node` and
    whose innermost level is `cpu` or `gpu` into the one-level grid over
    all its axes (of the innermost level's kind), outermost level's axes
    first, and records how many leading axes index nodes as the
    discardable attribute `dist.node_axes` (the runtime lowering passes it
    to `distrt_grid_lookup_nodes`, or `distrt_grid_lookup_gpus`):

    ```mlir
    dist.grid @h node[2, 2], cpu[2]
    // becomes
    dist.grid @h [2, 2, 2] {dist.node_axes = 2 : i64}
    dist.grid @g node[2], gpu[4]
    // becomes
    dist.grid @g gpu[2, 4] {dist.node_axes = 1 : i64}
    ```

    Every distributed tensor type on such a machine (in results, operands,
    block arguments and function signatures, module-wide) gets the
    one-level layout that gives every process exactly the elements, at the
    same local positions, that the nested layout gives it (the isl
    semantics of docs/semantics.md). Per tensor dimension, with the inner
    level's mesh modes offset by the outer levels' axis count:

    - partitioned at one level only: that level's modes, kind and skew;
    - cyclic over cyclic, or block_cyclic(b) over block_cyclic(b) with the
      same b: one tuple, outer level's modes first;
    - blocked over blocked: one tuple, inner level's modes first, when the
      nested blocks coincide with the one-level blocks: with n the extent,
      N and P the outer and inner part counts, B0 = ceil(n/N),
      B = ceil(n/(N*P)) and K = ceil(n/B0), when K = 1 or B0 = P * B, and
      the last non-empty outer part (m = n - (K-1) * B0 indices) has
      ceil(m/P) = min(B, m) (decided from these numbers alone);
    - replicated modes and fixed coordinates carry over (offset).

    Anything else is an error at the first operation that has the type,
    naming it and what would flatten: mixed kinds, block_cyclic with two
    block sizes, blocked extents that do not nest exactly, a skew on a
    dimension partitioned at several levels, sparse tensors, and machines
    whose levels are not `node`, ..., `cpu` or `node`, ..., `gpu`. `dist-to-llvm` runs this pass right after
    `dist-import-shard`.
  }];
}

def DistRejectForeignAnnotations
    : Pass<"dist-reject-foreign-annotations", "ModuleOp"> {
  let summary = "Reject distribution annotations dist does not import";
  let description = [{
    Fails with a located error at every operation of upstream MLIR's
    `shard` dialect (`shard.grid`, `shard.sharding`, `shard.shard`, ...)
    that is still there: `dist-to-llvm` runs `dist-import-shard` first
    (docs/interop.md), which either imports an annotated function or stops
    with its own errors, so this pass is the safety net for what it does
    not visit (say, `shard` operations outside `func.func`). Without it
    `dist-to-llvm` would fold `shard.shard` away and compile the function
    as if it were not distributed, every process computing the whole of it.

    ```mlir
    shard.grid @g(shape = 2)   // error: upstream 'shard' operation that
                               // dist-import-shard did not import; ...
    ```
  }];
}

def DistDeviceMemory : Pass<"dist-device-memory", "ModuleOp"> {
  let summary = "Put the SPMD program's tiles and transfer buffers in device "
                "memory";
  let description = [{
    Runs on the output of `dist-materialize-spmd` when `dist-to-llvm` has
    `device=gpu` (`dist-run --backend nccl`, docs/gpu.md):

    - every flat `memref.alloc` (the tiles in `@main`, the transfer and
      partial-result buffers of the kernels) becomes `dist.device_alloc`,
      and its `memref.dealloc` becomes `dist.device_free`, except the
      buffers the `--check` instrumentation gathers into and compares on
      the host (`dist.gather_tile`, `dist.reference`, `dist.check_result`,
      `dist.check_unchanged`, `dist.sum_reference`), which stay on the host;
    - a loop `for i in [0, n) { buf[i] = 0 }` over device memory (the
      zeroing of a partial result) becomes `dist.zero_buffer buf, n`;
    - what has no device form yet is an error at its location: sparse
      tensors, one-sided products and integer box sums.

    The leaves that are not library calls (`linalg.generic`, scalar loops,
    `parallelize()`) stay; `dist-gpu-kernels`, which `dist-to-llvm` runs
    next, makes them GPU kernels.

    ```mlir
    %buf = memref.alloc() : memref<512xf64>       // becomes
    %buf = dist.device_alloc() : memref<512xf64>
    ```

    The module gets the unit attribute `dist.device_memory`. With
    `only-gpu-machines` (what `dist-to-llvm device=auto`, the default,
    runs) the pass changes nothing unless a machine of the module is made
    of GPUs (`gpu[..]`, or `node[..], gpu[..]` after
    `dist-flatten-machines`); a module with machines of GPUs and of CPUs
    is then an error at the CPU machine, since every tile of a module
    lives in one kind of memory.
  }];
  let options = [
    Option<"onlyGpuMachines", "only-gpu-machines", "bool", "false",
           "Change nothing unless a machine of the module is made of GPUs, "
           "and refuse machines of CPUs beside them">,
  ];
  let dependentDialects = ["mlir::dist::DistDialect"];
}

def DistGpuKernels : Pass<"dist-gpu-kernels", "ModuleOp"> {
  let summary = "Run the leaves that are not library calls as GPU kernels "
                "(gpu.launch) on device tiles";
  let description = [{
    Runs after `dist-device-memory`, on a module with the attribute
    `dist.device_memory` (otherwise it changes nothing). Every leaf that is
    not a library call becomes one `gpu.launch`, so the host never reads or
    writes device memory:

    - a `linalg.generic` leaf whose outputs are indexed by all of its
      parallel dimensions (the statement's free indices) runs one GPU
      thread per output point: its parallel dimensions are put first and
      numbered by the thread's global id (256 threads a block), and the
      reduction dimensions are loops inside the thread;
    - a `parallelize()` loop (`scf.parallel`) runs one thread per iteration,
      the loops inside it sequentially in each thread;
    - any other leaf (a scalar loop nest with bounds checks, a point update
      below the innermost `communicate`, a leaf that reduces to a single
      point) runs on one GPU thread, in order: correct, but slow; a library
      leaf (`substitute(..., gemm|gemv|dot|mttkrp)`) is the fast way.

    A leaf is a maximal run of consecutive operations of one block that a
    kernel can run: `arith`, `math`, `scf`, `affine`, `index`, memref loads,
    stores and views, and `linalg.generic`. Its side effects move into the
    kernel, which is queued after the run's place on the runtime's stream;
    side-effect-free operations whose values the host still uses stay on
    the host too. A kernel's grid has `ceil(points / 256)` blocks and is not
    launched when the leaf has no points.

    Errors, at the operation: a leaf that reads or writes host memory and
    device memory, and a value read from device memory that the host uses.

    `dist-to-llvm` lowers the kernels with `dist-gpu-to-binary` (outlining,
    NVVM, `gpu-module-to-binary`) and `dist-gpu-launch-to-llvm`.

    With `test-host-loops` the pass also works on host tiles (any module)
    and then turns every `gpu.launch` into host loops over its blocks and
    threads: this runs the kernels' indexing on a CPU, so that tests check
    the formation with `--check` on machines without a GPU
    (`dist-to-llvm test-kernels-on-host=1`).
  }];
  let options = [
    Option<"testHostLoops", "test-host-loops", "bool", "false",
           "Testing: make kernels of the leaves over host tiles too, then "
           "run every gpu.launch as host loops over its blocks and threads">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

include "LeafAndSchedulePasses.td"

#endif // DIST_TRANSFORMS_PASSES_TD
