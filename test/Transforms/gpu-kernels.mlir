// RUN: dist-opt %s -split-input-file --dist-gpu-kernels | FileCheck %s
// RUN: sed -e 's/ attributes {dist.device_memory}//' %s | dist-opt -split-input-file --dist-gpu-kernels=test-host-loops=1 | FileCheck %s --check-prefix=HOST
// RUN: not dist-opt %s -split-input-file --dist-gpu-kernels=test-host-loops=1 2>&1 | FileCheck %s --check-prefix=HOSTDEV
// HOSTDEV: error: dist-gpu-kernels: test-host-loops runs the kernels as host loops, which cannot read device tiles; use it with host tiles (dist-to-llvm device=host test-kernels-on-host=1, dist-run --backend mpi)

// A linalg.generic leaf over device memory (the module has
// dist.device_memory, so function arguments are device tiles) with
// independent output points: its parallel dimensions, put first (here they
// are j and i, after the reduction k), become the threads of one launch of
// ceil(points / 256) blocks, numbered by the global thread id, the last
// dimension fastest; the reduction is a loop in each thread, which keeps
// the output point in a register (iter_args). No launch when the leaf has
// no points.
module attributes {dist.device_memory} {
  func.func @generic(%a: memref<?x?xf64>, %b: memref<?x?x?xf64>, %c: memref<?xf64>) {
    linalg.generic {indexing_maps = [affine_map<(k, i, j) -> (i, j, k)>,
                                     affine_map<(k, i, j) -> (k)>,
                                     affine_map<(k, i, j) -> (i, j)>],
                    iterator_types = ["reduction", "parallel", "parallel"]}
        ins(%b, %c : memref<?x?x?xf64>, memref<?xf64>) outs(%a : memref<?x?xf64>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %m = arith.mulf %x, %y : f64
      %s = arith.addf %o, %m : f64
      linalg.yield %s : f64
    }
    return
  }
}
// CHECK-LABEL: func.func @generic
// CHECK:         %[[BS:.*]] = arith.constant 256 : index
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivui %[[N:.*]], %[[BS]] : index
// CHECK:         %[[ANY:.*]] = arith.cmpi ugt, %[[N]], %{{.*}} : index
// CHECK:         scf.if %[[ANY]] {
// CHECK:           gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BDX:.*]] = %[[BS]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) {
// CHECK:             %[[T:.*]] = arith.muli %[[BX]], %[[BDX]] : index
// CHECK:             %[[GID:.*]] = arith.addi %[[T]], %[[TX]] : index
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[GID]], %{{.*}} : index
// CHECK:             scf.if %[[IN]] {
// CHECK:               arith.remui %[[GID]]
// CHECK:               arith.divui %[[GID]]
// CHECK:               %[[INIT:.*]] = memref.load %{{.*}} : memref<?x?xf64>
// CHECK:               %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f64) {
// CHECK:                 memref.load %{{.*}} : memref<?x?x?xf64>
// CHECK:                 memref.load %{{.*}} : memref<?xf64>
// CHECK:                 scf.yield
// CHECK:               memref.store %[[SUM]], %{{.*}} : memref<?x?xf64>
// CHECK:             gpu.terminator
// CHECK-NOT:     linalg.generic
// CHECK:         return

// HOST-LABEL: func.func @generic
// HOST-NOT:     gpu.launch
// HOST-COUNT-6: scf.for
// HOST:         arith.remui
// HOST:         scf.for
// HOST:         memref.store
// HOST-NOT:     gpu.launch

// -----

// A scalar leaf (a loop nest with a bounds check) runs on one GPU thread;
// the host keeps the index arithmetic it still uses (%n2).
module attributes {dist.device_memory} {
  func.func @scalar(%a: memref<?xf64>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n2 = arith.addi %n, %c1 : index
    scf.for %i = %c0 to %n2 step %c1 {
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %v = memref.load %a[%i] : memref<?xf64>
        %w = arith.addf %v, %v : f64
        memref.store %w, %a[%i] : memref<?xf64>
      }
    }
    return %n2 : index
  }
}
// CHECK-LABEL: func.func @scalar
// CHECK:         %[[N2:.*]] = arith.addi
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) {
// CHECK:           scf.for
// CHECK:             memref.store
// CHECK:           gpu.terminator
// CHECK:         return %[[N2]]

// -----

// A parallelize() loop: one thread per iteration, the loops inside it in
// each thread.
module attributes {dist.device_memory} {
  func.func @parallel(%a: memref<?x?xf64>, %n: index, %m: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      scf.for %j = %c0 to %m step %c1 {
        %v = memref.load %a[%i, %j] : memref<?x?xf64>
        %w = arith.mulf %v, %v : f64
        memref.store %w, %a[%i, %j] : memref<?x?xf64>
      }
      scf.reduce
    }
    return
  }
}
// CHECK-LABEL: func.func @parallel
// CHECK:         arith.ceildivui
// CHECK:         gpu.launch
// CHECK:           arith.cmpi ult
// CHECK-NOT:       scf.parallel
// CHECK:           scf.for
// CHECK:         gpu.terminator

// -----

// A loop over host memory (the check's copies) stays a host loop.
module attributes {dist.device_memory} {
  func.func @host(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f64
    %h = memref.alloc(%n) : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      memref.store %z, %h[%i] : memref<?xf64>
    }
    memref.dealloc %h : memref<?xf64>
    return
  }
}
// CHECK-LABEL: func.func @host
// CHECK-NOT:     gpu.launch
// CHECK:         memref.store

// -----

// Without dist.device_memory (host tiles) nothing changes.
func.func @cpu(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %a[%i] : memref<?xf64>
  }
  return
}
// CHECK-LABEL: func.func @cpu
// CHECK-NOT:     gpu.launch
// CHECK:         scf.for

// -----

// A parallelize() loop around a parallel leaf whose bounds do not depend
// on it: one space of points (i, then the leaf's j), one launch.
module attributes {dist.device_memory} {
  func.func @nest(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index, %m: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %off = arith.muli %i, %m : index
      %ra = memref.reinterpret_cast %a to offset: [%off], sizes: [1, %m], strides: [%m, 1] : memref<?x?xf64> to memref<1x?xf64, strided<[?, 1], offset: ?>>
      %rb = memref.reinterpret_cast %b to offset: [%off], sizes: [1, %m], strides: [%m, 1] : memref<?x?xf64> to memref<1x?xf64, strided<[?, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(p, j) -> (p, j)>, affine_map<(p, j) -> (p, j)>],
                      iterator_types = ["parallel", "parallel"]}
          ins(%rb : memref<1x?xf64, strided<[?, 1], offset: ?>>) outs(%ra : memref<1x?xf64, strided<[?, 1], offset: ?>>) {
      ^bb0(%x: f64, %o: f64):
        %s = arith.addf %o, %x : f64
        linalg.yield %s : f64
      }
      scf.reduce
    }
    return
  }
}
// CHECK-LABEL: func.func @nest
// CHECK:         gpu.launch
// CHECK-COUNT-2:   arith.divui
// CHECK-NOT:       scf.parallel
// CHECK:           memref.store
// CHECK:         gpu.terminator
// CHECK-NOT:     gpu.launch

// -----

// A host loop over host memory next to a device store: the loop stays on
// the host, the store is a kernel of its own.
module attributes {dist.device_memory} {
  func.func @apart(%a: memref<?xf64>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f64
    %h = memref.alloc(%n) : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      memref.store %z, %h[%i] : memref<?xf64>
    }
    memref.store %z, %a[%c0] : memref<?xf64>
    memref.dealloc %h : memref<?xf64>
    return
  }
}
// CHECK-LABEL: func.func @apart
// CHECK:         scf.for
// CHECK:           memref.store %{{.*}}, %[[H:.*]][%{{.*}}] : memref<?xf64>
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf64>
// CHECK:           gpu.terminator

// -----

// An input that is a view of the output (here the output itself): the
// threads would race, so the leaf runs on one thread.
module attributes {dist.device_memory} {
  func.func @alias(%a: memref<?xf64>) {
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                    iterator_types = ["parallel"]}
        ins(%a : memref<?xf64>) outs(%a : memref<?xf64>) {
    ^bb0(%x: f64, %o: f64):
      %s = arith.addf %o, %x : f64
      linalg.yield %s : f64
    }
    return
  }
}
// CHECK-LABEL: func.func @alias
// CHECK-NOT:     arith.ceildivui
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE:c1[_0-9]*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads
