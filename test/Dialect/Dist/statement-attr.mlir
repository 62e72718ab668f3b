// A dist.compute's statement is a #dist.statement: parsed once when the op
// is read, printed back as written. The pretty form is the DISTAL string;
// the generic form spells the attribute out, and both read back the same.

// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

dist.grid @m [1, 1]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// CHECK-LABEL: func @pretty
// GENERIC-LABEL: sym_name = "pretty"
func.func @pretty(%a: !T, %b: !T, %c: !T) {
  // The text is kept as written, spacing included.
  // CHECK: dist.compute "A(i,j) = B(i,k)*C(k,j)" (A = %{{.*}}, B = %{{.*}}, C = %{{.*}}) schedule [distribute({i, j}, {io, jo}, {ii, ji}, @m)] : !dist.tensor
  // GENERIC: "dist.compute"(%{{.*}}, %{{.*}}, %{{.*}}) <{names = ["A", "B", "C"], schedule = #dist.schedule<[distribute({i, j}, {io, jo}, {ii, ji}, @m)]>, statement = #dist.statement<"A(i,j) = B(i,k)*C(k,j)">}> : (!dist.tensor
  dist.compute "A(i,j) = B(i,k)*C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, @m)] : !T, !T, !T
  // CHECK: dist.compute "A(i,j) += 2.5 * (B(i,j) - C(j,i))" (A = %{{.*}}, B = %{{.*}}, C = %{{.*}}) : !dist.tensor
  // GENERIC: statement = #dist.statement<"A(i,j) += 2.5 * (B(i,j) - C(j,i))">
  dist.compute "A(i,j) += 2.5 * (B(i,j) - C(j,i))" (A = %a, B = %b, C = %c)
      : !T, !T, !T
  return
}

// The generic form read directly.
// CHECK-LABEL: func @generic
// GENERIC-LABEL: sym_name = "generic"
func.func @generic(%a: !T, %b: !T) {
  // CHECK: dist.compute "A(i,j) = -B(j,i)" (A = %{{.*}}, B = %{{.*}}) : !dist.tensor
  // GENERIC: statement = #dist.statement<"A(i,j) = -B(j,i)">
  "dist.compute"(%a, %b) <{names = ["A", "B"], statement = #dist.statement<"A(i,j) = -B(j,i)">}> : (!T, !T) -> ()
  return
}

// The attribute on its own.
// CHECK-LABEL: func @attribute
// CHECK-SAME: dist.stmt = #dist.statement<"y(i) = M(i,j) * x(j)">
// GENERIC-LABEL: sym_name = "attribute"
// GENERIC: dist.stmt = #dist.statement<"y(i) = M(i,j) * x(j)">
func.func @attribute() attributes {dist.stmt = #dist.statement<"y(i) = M(i,j) * x(j)">} {
  return
}
