// RUN: dist-opt %s --dist-to-llvm | dist-translate --dist-to-llvmir --dist-sanitize-address | FileCheck %s
// RUN: dist-opt %s --dist-to-llvm | dist-translate --dist-to-llvmir | FileCheck %s --check-prefix=PLAIN
// --dist-sanitize-address marks every function the module defines (not the
// runtime's declarations) sanitize_address, so clang -fsanitize=address
// instruments the generated code.

// CHECK: define i32 @main() #[[ATTR:[0-9]+]]
// CHECK-NOT: declare {{.*}} #[[ATTR]]
// CHECK: attributes #[[ATTR]] = { sanitize_address }
// PLAIN: define i32 @main() {
// PLAIN-NOT: sanitize_address

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.fill %t seed 1 : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}
