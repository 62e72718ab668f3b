// RUN: dist-opt %s --dist-reassociate-leaves | FileCheck %s
// Floating-point adds and multiplies of functions marked dist.reassociate
// get reassoc and contract, keeping the flags they had; other functions,
// and integer arithmetic, are left alone.

// CHECK-LABEL: func.func private @leaf
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,nnan,contract> : f64
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: arith.subf %{{.*}}, %{{.*}} : f64
func.func private @leaf(%a: f64, %b: f64, %i: i64) -> (f64, i64, f64)
    attributes {dist.reassociate} {
  %m = arith.mulf %a, %b : f64
  %s = arith.addf %m, %a fastmath<nnan> : f64
  %j = arith.addi %i, %i : i64
  %d = arith.subf %s, %b : f64
  return %s, %j, %d : f64, i64, f64
}

// CHECK-LABEL: func.func private @other
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
func.func private @other(%a: f64) -> f64 {
  %s = arith.addf %a, %a : f64
  return %s : f64
}
