// RUN: dist-opt %s -split-input-file -verify-diagnostics
// Verifier errors of the SPMD kernel, tile, redistribution-step and
// instrumentation ops.

dist.grid @m [2, 2]
func.func @f(%t: memref<?xf32>) {
  // expected-error @+1 {{the tile holds 'f32' elements but the tensor holds 'f64'}}
  dist.fill_tile %t seed 1 : memref<?xf32> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<8xf64, strided<[2]>>) {
  // expected-error @+1 {{the tile must be contiguous (the identity layout)}}
  dist.store_tile %t to "a.dtensor" : memref<8xf64, strided<[2]>> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<?xf64>) {
  // expected-error @+1 {{path must not be empty}}
  dist.load_tile %t from "" : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
  return
}

// -----

dist.grid @h node[2], cpu[2]
func.func @f() {
  // expected-error @+1 {{has a hierarchical layout; the runtime's tiles follow one-level layouts only}}
  %n = dist.tile_capacity !dist.tensor<8xf64, #dist.layout<@h, "x -> x", "x -> x">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f() {
  // expected-error @+1 {{layout of '!dist.tensor<8xf64, #dist.layout<@n, [(0) blocked]>>': layout names '@n', which is not a dist.grid in scope}}
  %n = dist.tile_capacity !dist.tensor<8xf64, #dist.layout<@n, "x -> x">>
  return
}

// -----

func.func @f(%t: memref<4xindex>) {
  // expected-error @+1 {{buffer elements must be integers or floats of whole bytes, got 'index'}}
  dist.check_alloc %t, "x" : memref<4xindex>
  return
}

// -----

func.func @f(%a: memref<4x4xf64>, %b: memref<4x4xf32>) {
  // expected-error @+1 {{operands must have one element type, got 'f64' and 'f32'}}
  dist.gemm %a, %b into %a : memref<4x4xf64>, memref<4x4xf32> into memref<4x4xf64>
  return
}

// -----

func.func @f(%a: memref<4x4xf64, strided<[1, 4]>>, %c: memref<4x4xf64>) {
  // expected-error @+1 {{operand a must have a contiguous last dimension (static stride 1)}}
  dist.gemm %a, %c into %c : memref<4x4xf64, strided<[1, 4]>>, memref<4x4xf64> into memref<4x4xf64>
  return
}

// -----

func.func @f(%a: memref<4x3xf64>, %b: memref<4x5xf64>, %c: memref<4x5xf64>) {
  // expected-error @+1 {{columns of op(a) and rows of op(b) differ: 3 vs 4}}
  dist.gemm %a, %b into %c : memref<4x3xf64>, memref<4x5xf64> into memref<4x5xf64>
  return
}

// -----

func.func @f(%a: memref<4x3xf64>, %x: memref<3xf64>, %y: memref<4xf64>) {
  // expected-error @+1 {{rows of op(a) and elements of y differ: 3 vs 4}}
  dist.gemv %a transposed, %x into %y : memref<4x3xf64>, memref<3xf64> into memref<4xf64>
  return
}

// -----

func.func @f(%a: memref<4xi32>, %s: memref<i32>) {
  // expected-error @+1 {{operand #0 must be}}
  dist.dot %a, %a into %s : memref<4xi32>, memref<4xi32> into memref<i32>
  return
}

// -----

func.func @f(%x: memref<4xf64>, %y: memref<5xf64>, %s: memref<f64>) {
  // expected-error @+1 {{the elements of x and y differ: 4 vs 5}}
  dist.dot %x, %y into %s : memref<4xf64>, memref<5xf64> into memref<f64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>) {
  // expected-error @+1 {{source and destination tensors must have one shape}}
  dist.redistribute_tile %a into %a : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">> into memref<?xf64> of !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>
  return
}

// -----

dist.grid @m [2, 2]
dist.grid @n [4]
func.func @f(%a: memref<?xf64>) {
  // expected-error @+1 {{a balanced step runs on one grid, but the layouts name @m and @n}}
  dist.redist_permute %a into %a axes [0] : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "[(0)]">> into memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@n, "[(0)]">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>) {
  // expected-error @+1 {{a balanced step takes layouts without skew}}
  dist.redist_slice %a into %a : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(0)]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>) {
  // expected-error @+1 {{grid axis 2 is out of range for @m of rank 2}}
  dist.redist_allgather %a into %a axes [2] : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "[(0)]">> into memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "[()]">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>) {
  // expected-error @+1 {{destination must have the source's shape without the summed dimensions}}
  dist.redist_allreduce %a into %a axes [1] sum [1] : memref<?xf64> of !dist.tensor<8x2xf64, #dist.layout<@m, "[(0),(1)]">> into memref<?xf64> of !dist.tensor<2xf64, #dist.layout<@m, "[(0)]">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>) {
  // expected-error @+1 {{the axes must be the grid axes the summed dimensions are distributed over}}
  dist.redist_reduce %a into %a axes [0] sum [1] : memref<?xf64> of !dist.tensor<8x2xf64, #dist.layout<@m, "[(0),(1)]">> into memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "[(0)]">>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f() {
  // expected-error @+1 {{grid axis 0 is listed twice}}
  dist.barrier on @m axes [0, 0]
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'@nowhere' does not name a dist.grid in scope}}
  %r = dist.grid_rank @nowhere
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<?xf64>, %w: memref<60xf64>) {
  // expected-error @+1 {{the whole buffer has 60 elements but the whole tensor has 64}}
  dist.gather_tile %t into %w root 0 : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">> into memref<60xf64>
  return
}

// -----

func.func @f(%a: memref<4xf64>, %b: memref<4xf64>) {
  // expected-error @+1 {{binds 1 names to 2 buffers}}
  dist.reference "A(i) = B(i)" bind ["A"] to %a, %b : memref<4xf64>, memref<4xf64>
  return
}

// -----

func.func @f(%a: memref<4xf64>, %b: memref<4xf64>) {
  // expected-error @+1 {{tensor 'B' of the statement is not bound to a buffer}}
  dist.reference "A(i) = B(i)" bind ["A", "C"] to %a, %b : memref<4xf64>, memref<4xf64>
  return
}

// -----

func.func @f(%a: memref<4xf64>, %b: memref<?xf64>) {
  // expected-error @+1 {{the buffer of 'B' must have a static shape and the identity layout}}
  dist.reference "A(i) = B(i)" bind ["A", "B"] to %a, %b : memref<4xf64>, memref<?xf64>
  return
}

// -----

func.func @f(%a: memref<4xf64>) {
  // expected-error @+1 {{invalid statement "A(i) = " at column}}
  dist.reference "A(i) = " bind ["A"] to %a : memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<?xf64>, %w: memref<8xf64>) {
  // expected-error @+1 {{tolerance must not be negative}}
  dist.check_result %t against %w label "x" tolerance -1.0 : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>, memref<8xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<?xf64>, %w: memref<8xf32>) {
  // expected-error @+1 {{the reference holds 'f32' elements but the tensor holds 'f64'}}
  dist.check_unchanged %t against %w label "x" : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>, memref<8xf32>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%p: memref<8x2xf64>, %w: memref<2xf64>) {
  // expected-error @+1 {{the result must have the whole tensor's shape without the summed dimensions}}
  dist.sum_reference %p into %w on @m sum [1] root 0 : memref<8x2xf64> into memref<2xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%p: memref<8x2xf64>, %w: memref<8xf64>) {
  // expected-error @+1 {{summed dimension 2 is out of range for a tensor of rank 2}}
  dist.sum_reference %p into %w on @m sum [2] root 0 : memref<8x2xf64> into memref<8xf64>
  return
}
