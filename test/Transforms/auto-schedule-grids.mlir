// dist-auto-schedule on grids of other shapes (docs/autoschedule.md,
// "Other grid shapes"): which shapes it tries, the layouts and
// redistributions it writes when one wins, how that follows the numbers,
// and pick=K. (auto-schedule-shapes.mlir: the shapes tried for 16,384
// processes.)
//
// RUN: dist-opt %s --dist-auto-schedule -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: dist-opt %s --dist-auto-schedule=cost-file=%S/Inputs/autosched-fast-network.txt -split-input-file | FileCheck %s --check-prefix=FASTNET
// RUN: dist-opt %s --dist-auto-schedule=cost-file=%S/Inputs/autosched-slow-network.txt -split-input-file 2>&1 | FileCheck %s --check-prefix=SLOWNET
// RUN: not dist-opt %s "--dist-auto-schedule=cost-file=%S/Inputs/autosched-slow-network.txt grid-shapes=0" -split-input-file 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: dist-opt %s "--dist-auto-schedule=cost-file=%S/Inputs/autosched-slow-network.txt report=2" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANK2
// RUN: not dist-opt %s "--dist-auto-schedule=cost-file=%S/Inputs/autosched-slow-network.txt pick=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=PICK2

// A 1024^3 product on a 1-D grid of 16, every matrix blocked by rows.
// There each process receives all of C (and copies it into buffers); on a
// 4 x 4 grid half of it, of A and C, which pays for moving B and C onto it
// and A back (0.0492 s predicted on a slow network: beta 1e-7 s), so the
// pass makes the grid, the temporaries and the redistributions; with `+=`
// A moves onto the grid before the computation too. With a fast network
// and fast copies (moving costs its messages only) the 1-D grid stays;
// with grid-shapes=0 the slow network picks the one-sided product there,
// which moves only the slices each process lacks.
dist.grid @m [16]
!R = !dist.tensor<1024x1024xf64, #dist.layout<@m, "xy -> x">>

// FASTNET-NOT: auto_grid
// FASTNET: dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %arg0, B = %arg1, C = %arg2) schedule [distribute({i}, {io}, {ii}, Grid(16)),
// FASTNET: dist.compute "A(i,j) += B(i,k) * C(k,j)" (A = %arg0, B = %arg1, C = %arg2) schedule [distribute({i}, {io}, {ii}, Grid(16)),

// SLOWNET: remark: schedule auto: computes on grid @auto_grid_4x4 [4, 4]: redistributes 'B', 'C' onto it and 'A' back (predicted 0.0492 s)
// SLOWNET: remark: schedule auto: computes on grid @auto_grid_4x4 [4, 4]: redistributes 'A', 'B', 'C' onto it and 'A' back
// SLOWNET: dist.grid @auto_grid_4x4 [4, 4]
// SLOWNET: dist.grid @m [16]
// SLOWNET-LABEL: func.func @gemm(
// SLOWNET: %[[TA:.*]] = dist.alloc : !dist.tensor<1024x1024xf64, #dist.layout<@auto_grid_4x4, [(1) blocked, (0) blocked]>>
// SLOWNET: %[[TB:.*]] = dist.alloc : !dist.tensor<1024x1024xf64, #dist.layout<@auto_grid_4x4, [(1) blocked, (0) blocked]>>
// SLOWNET: %[[TC:.*]] = dist.alloc : !dist.tensor<1024x1024xf64, #dist.layout<@auto_grid_4x4, [(1) blocked, (0) blocked]>>
// SLOWNET-NOT: dist.redistribute %arg0
// SLOWNET: dist.redistribute %arg1 into %[[TB]]
// SLOWNET: dist.redistribute %arg2 into %[[TC]]
// SLOWNET: dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %[[TA]], B = %[[TB]], C = %[[TC]]) schedule [distribute({j, i}, {jo, io}, {ji, ii}, Grid(4, 4)), communicate({A, B, C}, io), substitute({ii, ji, k}, gemm)]
// SLOWNET: dist.redistribute %[[TA]] into %arg0
// SLOWNET-NEXT: return
// SLOWNET-LABEL: func.func @gemm_acc(
// SLOWNET: %[[UA:.*]] = dist.alloc : !dist.tensor<1024x1024xf64, #dist.layout<@auto_grid_4x4
// SLOWNET: dist.redistribute %arg0 into %[[UA]]
// SLOWNET: dist.compute "A(i,j) += B(i,k) * C(k,j)" (A = %[[UA]],
// SLOWNET: dist.redistribute %[[UA]] into %arg0
// SLOWNET-NEXT: return

// DEFAULT: dist.grid @auto_grid_4x4 [4, 4]

// (The copy below fails without other shapes; its error comes first.)
// OWN: error: 'dist.compute' op schedule auto: none of the 1 candidate schedules verifies and lowers
// OWN-NOT: auto_grid
// OWN: dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %arg0, B = %arg1, C = %arg2) schedule [stationary(auto)] :

// The report marks a candidate on another grid; pick=2 writes the second.
// RANK2: remark: schedule auto: chosen of [[N:[0-9]+]]: {{.*}}: [distribute({j, i}, {jo, io}, {ji, ii}, Grid(4, 4)), communicate({A, B, C}, io), substitute({ii, ji, k}, gemm)] on @auto_grid_4x4{{$}}
// RANK2: remark: schedule auto: rank 2 of [[N]]: {{.*}}: [distribute({j, i}, {jo, io}, {ji, ii}, Grid(4, 4)), split(k, ko, ki, 64), {{.*}} on @auto_grid_4x4{{$}}
// (The copy below has one candidate; its error comes first.)
// PICK2: error: 'dist.compute' op schedule auto: pick=2 but 1 candidate schedules fit (pick counts from 1)
// PICK2: dist.grid @auto_grid_4x4 [4, 4]
// PICK2: dist.compute "A(i,j) = B(i,k) * C(k,j)" {{.*}} schedule [distribute({j, i}, {jo, io}, {ji, ii}, Grid(4, 4)), split(k, ko, ki, 64),
func.func @gemm(%a: !R, %b: !R, %c: !R) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !R, !R, !R
  return
}
func.func @gemm_acc(%a: !R, %b: !R, %c: !R) {
  dist.compute "A(i,j) += B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !R, !R, !R
  return
}

// -----

// A copy of vectors on a 2 x 2 grid: no candidate distributes one variable
// over two axes there (test/Transforms/auto-schedule-invalid.mlir), but on
// a grid of 4 it runs, B redistributed onto it and A back.
dist.grid @q [2, 2]
!V = !dist.tensor<8xf64, #dist.layout<@q, "x -> x*">>
// DEFAULT: dist.grid @auto_grid_4 [4]
// DEFAULT-LABEL: func.func @copy(
// DEFAULT: dist.redistribute %arg1 into
// DEFAULT: dist.compute "A(i) = B(i)" {{.*}} schedule [distribute({i}, {io}, {ii}, Grid(4)), communicate({A, B}, io)] : !dist.tensor<8xf64, #dist.layout<@auto_grid_4, [(0) blocked]>>
// DEFAULT: dist.redistribute {{.*}} into %arg0
func.func @copy(%a: !V, %b: !V) {
  dist.compute "A(i) = B(i)" (A = %a, B = %b) schedule auto : !V, !V
  return
}
