// RUN: dist-opt %s --dist-restrict-leaves -split-input-file -verify-diagnostics | FileCheck %s

// The marked memref arguments' aligned pointers get llvm.noalias: argument
// 1 of (memref<?xf64>, memref<?xi32>, index, memref<?x4xf64>) starts at
// LLVM argument 5 (its aligned pointer is 6), argument 3 at 11 (aligned
// 12); the marker is removed, and unmarked functions are left alone.
// CHECK-LABEL: llvm.func @leaf(
// CHECK-SAME: %arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: !llvm.ptr, %arg6: !llvm.ptr {llvm.noalias}, %arg7: i64, %arg8: i64, %arg9: i64, %arg10: i64, %arg11: !llvm.ptr, %arg12: !llvm.ptr {llvm.noalias}, %arg13: i64, %arg14: i64, %arg15: i64, %arg16: i64, %arg17: i64)
// CHECK-NOT: dist.restrict
// CHECK-LABEL: llvm.func @other(
// CHECK-NOT: llvm.noalias
llvm.func @leaf(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64,
                %n: i64,
                %c0: !llvm.ptr, %c1: !llvm.ptr, %c2: i64, %c3: i64, %c4: i64,
                %c5: i64, %c6: i64)
    attributes {dist.restrict = {args = array<i64: 1, 3>,
                type = (memref<?xf64>, memref<?xi32>, index, memref<?x4xf64>) -> ()}} {
  llvm.return
}
llvm.func @other(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64) {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict' describes '(memref<?xf64>, index) -> ()', which is 6 LLVM arguments, but the function has 5}}
llvm.func @count(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64)
    attributes {dist.restrict = {args = array<i64: 0>, type = (memref<?xf64>, index) -> ()}} {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict' names argument 1, which is not a memref argument of '(memref<?xf64>, index) -> ()'}}
llvm.func @notmemref(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %n: i64)
    attributes {dist.restrict = {args = array<i64: 1>, type = (memref<?xf64>, index) -> ()}} {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict' names argument 2, which is not a memref argument}}
llvm.func @range(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %n: i64)
    attributes {dist.restrict = {args = array<i64: 2>, type = (memref<?xf64>, index) -> ()}} {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict': LLVM argument 1 (the aligned pointer of argument 0) is not a pointer}}
llvm.func @notptr(%a0: !llvm.ptr, %a1: i64, %a2: i64, %a3: i64, %a4: i64)
    attributes {dist.restrict = {args = array<i64: 0>, type = (memref<?xf64>) -> ()}} {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict' must be {args = array<i64: ...>, type = <function type>}}}
llvm.func @shape(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64)
    attributes {dist.restrict = {args = [0]}} {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict' must be a dictionary attribute}}
llvm.func @dict(%a0: !llvm.ptr) attributes {dist.restrict = 1 : i64} {
  llvm.return
}

// -----

// expected-error @below {{'dist.restrict' is applied to llvm.func operations; run dist-restrict-leaves after the conversion to the LLVM dialect}}
func.func private @early(%a: memref<?xf64>)
    attributes {dist.restrict = {args = array<i64: 0>, type = (memref<?xf64>) -> ()}}

// -----

// expected-error @below {{'dist.restrict' describes '(memref<?xf64>, index) -> ()', but the function's type is '(memref<?xf64>) -> ()'}}
func.func private @mismatch(%a: memref<?xf64>)
    attributes {dist.restrict = {args = array<i64: 0>, type = (memref<?xf64>, index) -> ()}}

// -----

// expected-error @below {{'dist.restrict' is for leaf functions}}
module attributes {dist.restrict = {args = array<i64: 0>, type = (memref<?xf64>) -> ()}} {
}
