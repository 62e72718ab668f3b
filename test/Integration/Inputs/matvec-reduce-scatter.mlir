// y(i) = A(i,j) * x(j) with the summed index j distributed over 3
// processes and y blocked over the same processes: the partial results are
// reduce-scattered. 2,000 rows on 3 processes are pieces of 667, 667 and
// 666 rows (reduce-scatter-blocks.test varies the size).

dist.grid @x [3]

!A = !dist.tensor<2000x96xf64, #dist.layout<@x, "ij -> j">>
!X = !dist.tensor<96xf64, #dist.layout<@x, "j -> j">>
!Y = !dist.tensor<2000xf64, #dist.layout<@x, "i -> i">>

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %x = dist.alloc : !X
  %y = dist.alloc : !Y
  dist.fill %a seed 1 : !A
  dist.fill %x seed 2 : !X
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({j}, {jo}, {ji}, Grid(3)), reorder({jo, i, ji})]
      : !Y, !A, !X
  %ok = arith.constant 0 : i32
  return %ok : i32
}
