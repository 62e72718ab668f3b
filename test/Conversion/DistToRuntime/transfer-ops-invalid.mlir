// RUN: dist-opt %s --convert-dist-to-runtime -split-input-file -verify-diagnostics
// Transfers whose buffers the runtime cannot take fail with one diagnostic.

dist.grid @m [2]
func.func @f(%a: memref<4xf16>, %r: index) {
  // expected-error @+1 {{communicates 'f16' elements; the runtime handles f32, f64, i32 and i64}}
  dist.permute %a to %r, %a from %r on @m : memref<4xf16>, memref<4xf16>
  return
}

// -----

dist.grid @m [2]
func.func @f(%a: memref<4xf64, strided<[2]>>, %r: index) {
  // expected-error @+1 {{needs a contiguous buffer with the identity layout}}
  %q = dist.start_broadcast %a on @m axes [0] root %r : memref<4xf64, strided<[2]>>
  dist.wait %q
  return
}
