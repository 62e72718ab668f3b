// The symbolic communication analysis (isl, SymbolicCommunication.cpp)
// agrees with brute-force enumeration over every (processor, step) pair on
// the DISTAL algorithms, the tensor kernels and the property test's corpus:
// same kinds and parameters, and roots and peers equal at every processor
// and step. --test-dist-communication-crosscheck fails on any difference.
// (Corpus programs that must be rejected, marked proptest-expect-error, are
// left out.)
// RUN: for f in %dist_src_root/examples/distal/*.mlir %dist_src_root/test/proptest/corpus/*.mlir; do grep -q proptest-expect-error "$f" && continue; dist-opt --test-dist-communication-crosscheck "$f" -o /dev/null 2>&1 || exit 1; done | FileCheck %s --check-prefix=AGREE
// AGREE-NOT: error
// AGREE: crosscheck A: agree (local)
// AGREE: crosscheck B: agree (broadcast)

// Reduce-scatters in the layout's blocks (extents the group does not
// divide: 2,000, 4 and 5 rows on 3 processes, 30 rows on 4) and in equal
// pieces (2,100 rows) agree too.
// RUN: for n in 2000 4 5 2100; do sed -e "s/2000x/${n}x/" %dist_src_root/test/Integration/Inputs/matvec-reduce-scatter.mlir | dist-opt --test-dist-communication-crosscheck -o /dev/null 2>&1 || exit 1; done | FileCheck %s --check-prefix=BLOCKS
// RUN: sed -e 's/32x/30x/g' %dist_src_root/examples/patterns/reduce-scatter.mlir | dist-opt --test-dist-communication-crosscheck -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS-MM
// BLOCKS-COUNT-4: crosscheck y: agree (reduce-scatter)
// BLOCKS-MM: crosscheck C: agree (reduce-scatter)

// On grids far beyond enumeration the roots and peers are closed forms of
// the coordinates (p0, p1, ...) and the step loops.
// RUN: dist-opt --test-dist-communication-crosscheck=print %s -split-input-file -o /dev/null 2>&1 | FileCheck %s

// SUMMA on 128x128, 1024^2, 128 steps: the root of both panels is the step.
// CHECK-LABEL: remark: A: local
// CHECK: remark: B: broadcast root = ko
// CHECK: remark: C: broadcast root = ko
// CHECK: crosscheck C: too many (processor, step) pairs to enumerate
dist.grid @m [128, 128]
!T = !dist.tensor<1024x1024xf64, #dist.layout<@m, "xy -> xy">>
func.func @summa(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(128, 128)),
                split(k, ko, ki, 8), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

// Cannon on 128x128: the initial alignment receives block (x, x + y) and
// sends to (x, y - x), then shifts by one along each axis.
// CHECK-LABEL: remark: A: local
// CHECK: remark: B: shift src = (((kos >= 1) ? -1 : p0), ((kos >= 1) ? -1 : mod((p1 + p0), 128))) dst = (((kos >= 1) ? -1 : p0), ((kos >= 1) ? -1 : mod((p1 + (127 * p0)), 128)))
// CHECK: remark: C: shift src = (((kos >= 1) ? -1 : mod((p1 + p0), 128)), ((kos >= 1) ? -1 : p1)) dst = (((kos >= 1) ? -1 : mod(((127 * p1) + p0), 128)), ((kos >= 1) ? -1 : p1))
dist.grid @m [128, 128]
!T = !dist.tensor<1024x1024xf64, #dist.layout<@m, "xy -> xy">>
func.func @cannon(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(128, 128)),
                divide(k, ko, ki, 128), reorder({ko, ii, ji, ki}),
                rotate(ko, {io, jo}, kos),
                communicate(A, jo), communicate({B, C}, kos),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

// Johnson on 16x16x16: B and C broadcast once from the face that holds
// them, A reduces onto the face z = 0.
// CHECK-LABEL: remark: A: reduce root = 0
// CHECK: remark: B: broadcast root = 0
// CHECK: remark: C: broadcast root = 0
dist.grid @m [16, 16, 16]
!A = !dist.tensor<1024x1024xf64, #dist.layout<@m, "xy -> xy0">>
!B = !dist.tensor<1024x1024xf64, #dist.layout<@m, "xz -> x0z">>
!C = !dist.tensor<1024x1024xf64, #dist.layout<@m, "zy -> 0yz">>
func.func @johnson(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(16, 16, 16)),
                communicate({A, B, C}, ko),
                substitute({ii, ji, ki}, gemm)] : !A, !B, !C
  return
}
