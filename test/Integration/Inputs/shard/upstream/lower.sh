#!/bin/bash
# Upstream MLIR 22's own path for shard IR: --shard-partition,
# --convert-shard-to-mpi, then bufferization and the LLVM dialect, and an
# object file with clang-22. Usage: lower.sh IN.mlir OUT.o
set -euo pipefail
in=$1; out=$2
mlir-opt-22 --pass-pipeline="builtin.module(func.func(shard-partition),convert-shard-to-mpi,canonicalize)" "$in" -o "$out.spmd.mlir"
# shard.grid outlives the partition and has no lowering.
grep -v "shard.grid" "$out.spmd.mlir" > "$out.spmd2.mlir"
# No buffer-deallocation-pipeline: it rejects mpi.allreduce ("ops with
# unknown memory side effects are not supported").
mlir-opt-22 --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},convert-bufferization-to-memref,convert-linalg-to-loops,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)" "$out.spmd2.mlir" -o "$out.llvm.mlir"
mlir-translate-22 --mlir-to-llvmir "$out.llvm.mlir" -o "$out.ll"
# The MPI lowering names Open MPI 5's MPI_SUM symbol; Debian's Open MPI 4.1
# calls it ompi_mpi_op_sum.
sed -i 's/@ompi_mpi_sum\b/@ompi_mpi_op_sum/g' "$out.ll"
clang-22 -O1 -Wno-override-module -c "$out.ll" -o "$out"
