// RUN: dist-opt %s --dist-to-llvm | FileCheck %s
// parallelize() reaches the LLVM dialect as OpenMP (omp.parallel with a
// worksharing loop), which dist-translate exports as __kmpc calls and
// dist-run links with -fopenmp.

// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: omp.loop_nest
dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<8xf64, #dist.layout<@m, "z -> **">>
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo), parallelize(ii)]
      : !A, !B, !c
  return
}
