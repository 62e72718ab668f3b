// RUN: dist-opt %s -split-input-file -verify-diagnostics

dist.grid @m [2, 2]
func.func @f() {
  // expected-error @+1 {{tensor dimension 0 names mesh mode 2, but machine @m has 2 dimension(s)}}
  %0 = dist.alloc : !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> zyx">>
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{invalid layout "xy -> xx": machine dimension name 'x' is repeated on the right of '->'}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xx">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{invalid layout "xx -> xy": tensor dimension 'x' is named twice on the left of '->'}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xx -> xy">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{machine dimension 'z' names no tensor dimension}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xz">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{mesh mode 0 is used more than once}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(0)]">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{mesh mode 1 is used more than once}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0, 1), (1)]>>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{mesh mode 1 both partitions the tensor and is fixed}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1); (1), 0]">>) {
  return
}

// -----

dist.grid @c [2, 2, 2]
func.func @f() {
  // expected-error @+1 {{fixes mesh mode 2 to coordinate 3, outside its extent 2}}
  %0 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@c, "xy -> xy3">>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{layout names '@nowhere', which is not a dist.grid in scope}}
  %0 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@nowhere, "xy -> xy">>
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{layout describes 2 tensor dimension(s) but the tensor has rank 3}}
func.func @f(%a: !dist.tensor<8x8x8xf64, #dist.layout<@m, "xy -> xy">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{distributed tensors hold f32, f64, i32 or i64, not 'f16'}}
func.func @f(%a: !dist.tensor<8x8xf16, #dist.layout<@m, "xy -> xy">>) {
  return
}

// -----

dist.grid @h node[2, 2], cpu[4]
func.func @f() {
  // expected-error @+1 {{layout has 1 level(s) but machine @h has 2}}
  %0 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> xy">>
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{block_cyclic needs a block size of at least 1, got 0}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy" block_cyclic(0)>>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{invalid layout "xy": expected tensor distribution notation 'X -> Y'}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{a dimension with no mesh modes '()' is not partitioned and takes no partition kind}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0), () blocked]>>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{tensor has more than 2^50 elements, the most dist supports}}
func.func @f(%a: !dist.tensor<4611686018427387904x32xf64, #dist.layout<@m, "xy -> xy">>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{mesh mode 1 both partitions tensor dimension 1 and skews it}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(1)]>>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{a dimension with no mesh modes '()' cannot be skewed}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, () skew(1)]>>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{skew mesh mode 0 is listed twice}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(0, 0)]>>) {
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{tensor dimension 0 is skewed by mesh mode 1, which partitions tensor dimension 1, itself skewed; skews cannot chain}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked skew(1), (1) blocked skew(0)]>>) {
  return
}

// -----

dist.grid @m [2, 2]
func.func @f() {
  // expected-error @+1 {{tensor dimension 1 is skewed by mesh mode 2, but machine @m has 2 dimension(s)}}
  %a = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(2)]>>
  return
}

// -----

dist.grid @m [2, 2]
// expected-error @+1 {{skew mesh mode -1 is negative}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(-1)]>>) {
  return
}
