// RUN: dist-opt %s -split-input-file -verify-diagnostics
// Verifier errors of the SPMD ops of transfers, boxes and tile views.

dist.grid @m [2, 2]
func.func @f() -> index {
  // expected-error @+1 {{grid axis 2 is out of range for @m of rank 2}}
  %c = dist.grid_coord on @m axis 2 : index
  return %c : index
}

// -----

func.func @f() -> index {
  // expected-error @+1 {{'@nowhere' does not name a dist.grid in scope}}
  %c = dist.grid_coord on @nowhere axis 0 : index
  return %c : index
}

// -----

dist.grid @m [2, 2]
func.func @f() -> index {
  // expected-error @+1 {{grid axis 1 is listed twice}}
  %r = dist.axes_rank on @m axes [1, 1] : index
  return %r : index
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xf64>, %buf: memref<16xf64>, %i: index) {
  // expected-error @+1 {{the box has 1 lower bounds and 1 sizes, but the tensor '!dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>' has rank 2 (one of each per dimension)}}
  dist.copy_box %tile[%i] [%i] into %buf as !T : memref<?xf64>, memref<16xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xf64>, %buf: memref<16xf64>, %i: index) {
  // expected-error @+1 {{the box has 2 lower bounds and 1 sizes}}
  dist.fetch_box %tile[%i, %i] [%i] into %buf as !T : memref<?xf64>, memref<16xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xf64>, %buf: memref<16xf32>, %i: index) {
  // expected-error @+1 {{the buffer holds 'f32' elements, but the tensor '!dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>' holds 'f64'}}
  dist.add_box %buf into %tile[%i, %i] [%i, %i] as !T : memref<16xf32>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xi64>, %buf: memref<16xf64>, %i: index) {
  // expected-error @+1 {{the tile holds 'i64' elements, but the tensor}}
  dist.accumulate_box %buf into %tile[%i, %i] [%i, %i] as !T : memref<16xf64>, memref<?xi64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xf32>) {
  // expected-error @+1 {{the tile holds 'f32' elements}}
  dist.zero_tile %tile as !T : memref<?xf32>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xf64>, %i: index) {
  // expected-error @+1 {{the view must have type 'memref<?xf64, strided<[1], offset: ?>>' (dynamic size and offset, unit stride), got 'memref<?xf64>'}}
  %v, %in = dist.tile_view %tile[%i, %i] [%i, %i] as !T : memref<?xf64> -> memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<4x4xf64>, %buf: memref<16xf64>, %i: index) {
  // expected-error @+1 {{operand #0 must be 1D memref of any type values}}
  dist.copy_box %tile[%i, %i] [%i, %i] into %buf as !T : memref<4x4xf64>, memref<16xf64>
  return
}

// -----

dist.grid @m [4]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%tile: memref<?xf64>) {
  // expected-error @+1 {{layout of '!dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>': tensor dimension 1 names mesh mode 1, but machine @m has 1 dimension(s)}}
  dist.zero_tile %tile as !T : memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>, %b: memref<?xf32>, %r: index) {
  // expected-error @+1 {{the send and receive element types differ: 'f64' vs 'f32'}}
  dist.permute %a to %r, %b from %r on @m : memref<?xf64>, memref<?xf32>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>, %b: memref<?xf32>, %r: index) {
  // expected-error @+1 {{the send and receive element types differ}}
  %q = dist.start_permute %a to %r, %b from %r on @m : memref<?xf64>, memref<?xf32>
  return
}

// -----

func.func @f(%a: memref<?xf64>, %r: index) {
  // expected-error @+1 {{'@nowhere' does not name a dist.grid in scope}}
  dist.permute %a to %r, %a from %r on @nowhere : memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>, %r: index) {
  // expected-error @+1 {{grid axis 3 is out of range for @m of rank 2}}
  %q = dist.start_broadcast %a on @m axes [3] root %r : memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<4xf64>, %b: memref<8xf64>) {
  // expected-error @+1 {{the input holds 4 elements and the output 8; a shift sends and receives as many}}
  %q = dist.start_shift %a into %b on @m axis 0 offset 1 : memref<4xf64> into memref<8xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<4xf64>) {
  // expected-error @+1 {{grid axis 2 is out of range for @m of rank 2}}
  %q = dist.start_shift %a into %a on @m axis 2 offset 1 : memref<4xf64> into memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<4xf64>, %b: memref<8xi32>) {
  // expected-error @+1 {{the input and output element types differ: 'f64' vs 'i32'}}
  %q = dist.start_allgather %a into %b on @m axes [0] : memref<4xf64> into memref<8xi32>
  return
}

// -----

func.func @f(%r: index) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%r' expects different type than prior uses: '!dist.request' vs 'index'}}
  dist.wait %r
  return
}
