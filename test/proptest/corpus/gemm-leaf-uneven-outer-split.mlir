// proptest: seed 21 index 1068 ranks 1
// proptest-failure: heap corruption: a gemm leaf under an uneven split of the outer (batch) variable l (4 split by 3: lo = 2, li = 3, so l = 4 and 5 run past the tensor) corrupts the heap: "distrt: fatal: memref.dealloc: 0x... was not allocated", "free(): invalid next size", or on 8 ranks (the generated program, 4x10x3 f32 on a 4x2 grid) a SIGABRT / SIGSEGV in distrt_finalize or a hang, after every check PASSed. The same statement with scalar loops (no substitute), or with l split evenly (by 2 or 4), is fine. Minimized by hand.
// Expected: A(l,i,j) = sum_k B(l,i,k) * C(k,j), and a clean exit.

dist.grid @g [1]
!A = !dist.tensor<4x10x3xf64, #dist.layout<@g, "xyz -> *">>
!C = !dist.tensor<3x3xf64, #dist.layout<@g, "xy -> *">>
func.func @f(%A: !A, %B: !A, %C: !C) {
  dist.compute "A(l,i,j) = B(l,i,k) * C(k,j)" (A = %A, B = %B, C = %C)
      schedule [split(l, lo, li, 3), substitute({i, j, k}, gemm)] : !A, !A, !C
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !A
  %c = dist.alloc : !C
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !A
  dist.fill %c seed 3 : !C
  func.call @f(%a, %b, %c) : (!A, !A, !C) -> ()
  dist.store %a to "out_a.dtensor" : !A
  %ok = arith.constant 0 : i32
  return %ok : i32
}
