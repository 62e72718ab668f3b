// npy-errors.test: loads b.npy into a 4x3 f64 tensor (2x2 blocks) and
// stores it as a.NPY (any case of the extension selects .npy).

dist.grid @m [2, 2]

!T = !dist.tensor<4x3xf64, #dist.layout<@m, "xy -> xy">>

func.func @main() -> i32 {
  %a = dist.alloc : !T
  dist.load %a from "b.npy" : !T
  dist.store %a to "a.NPY" : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}
