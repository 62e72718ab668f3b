// dist-report-communication{quiet}: only the report. No module on stdout,
// no "note: see current operation" after a remark (not even with
// --mlir-print-op-on-diagnostic); -o FILE still gets the module.
//
// RUN: dist-opt --dist-report-communication=quiet=1 %s > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: FileCheck %s --check-prefix=EMPTY --allow-empty < %t.out
// RUN: dist-opt --dist-report-communication=quiet=1 --mlir-print-op-on-diagnostic %s 2>&1 | FileCheck %s --check-prefix=REPORT --implicit-check-not=note: --implicit-check-not=module
// RUN: dist-opt --pass-pipeline='builtin.module(dist-report-communication{quiet=true})' %s 2>&1 | FileCheck %s --check-prefix=REPORT --implicit-check-not=module
// RUN: dist-opt --dist-report-communication=quiet=1 %s -o %t.mlir 2> /dev/null
// RUN: FileCheck %s --check-prefix=FILE < %t.mlir
//
// Without quiet the module is printed, and with --mlir-print-op-on-diagnostic
// every remark has the operation note.
// RUN: dist-opt --dist-report-communication %s 2> /dev/null | FileCheck %s --check-prefix=FILE
// RUN: dist-opt --dist-report-communication --mlir-print-op-on-diagnostic %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTES
//
// general-only: one remark per tensor that moves with the general exchange,
// with the reason and the suggestion; nothing for the others.
// RUN: dist-opt '--dist-report-communication=quiet=1 general-only=1' %s 2>&1 | FileCheck %s --check-prefix=GENERAL --implicit-check-not=remark:
//
// general-only skips a computation that verifies but cannot be lowered
// (x on another machine; the lowering reports it); the full report stops
// with the error. A computation that distributes no loop is a verifier
// error.
// RUN: sed -e 's/^dist.grid @m \[4\]$/dist.grid @m [4]\ndist.grid @n [4]/' -e 's/#dist.layout<@m, "x -> \*">/#dist.layout<@n, "x -> *">/' %s > %t.twogrids.mlir
// RUN: dist-opt '--dist-report-communication=quiet=1 general-only=1' %t.twogrids.mlir 2>&1 | count 0
// RUN: not dist-opt --dist-report-communication=quiet=1 %t.twogrids.mlir 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: error: 'dist.compute' op cannot be lowered: tensor 'x' lives on @n but 'y' on @m
// RUN: sed -e 's/schedule \[distribute.*\]$/schedule []/' %s > %t.nodist.mlir
// RUN: not dist-opt %t.nodist.mlir 2>&1 | FileCheck %s --check-prefix=NODIST
// NODIST: error: 'dist.compute' op schedule cannot be lowered: no loop is distributed

// EMPTY-NOT: {{.}}
// FILE: module
// FILE: dist.compute "y(i) = A(i,j) * x(j)"

// REPORT: report-communication-quiet.mlir:[[@LINE+19]]:3: remark: y (output): local, once
// REPORT-NEXT: dist.compute
// REPORT-NEXT: ^
// REPORT-NEXT: remark: A: general, once
// REPORT-SAME: ; suggestion: give 'A' the layout #dist.layout<@m, [(0) blocked, ()]> (then: local)
// REPORT: remark: x: local, once

// NOTES: remark: y (output)
// NOTES: note: see current operation: dist.compute
// NOTES: remark: A: general

// GENERAL: report-communication-quiet.mlir:[[@LINE+8]]:3: remark: tensor 'A' moves with the general exchange at every call of 'y(i) = A(i,j) * x(j)': {{.+}}; suggestion: give 'A' the layout #dist.layout<@m, [(0) blocked, ()]> (then: local)

dist.grid @m [4]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> y">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> *">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> x">>

func.func @matvec(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !y, !A, !x
  return
}
