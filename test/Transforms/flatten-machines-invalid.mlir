// RUN: dist-opt %s --dist-flatten-machines --split-input-file --verify-diagnostics

dist.grid @h node[2], cpu[2]
func.func @mixed() {
  // expected-error @+1 {{has '!dist.tensor<8xf64, #dist.layout<@h, [(0) blocked], [(0)]>>' on the hierarchical machine '@h', which dist-flatten-machines cannot lower: dimension 0 is partitioned differently at level 0 and level 1; only blocked over blocked, cyclic over cyclic and block_cyclic(b) over block_cyclic(b) with one b flatten}}
  %a = dist.alloc : !dist.tensor<8xf64, #dist.layout<@h, "x -> x", "x -> x" cyclic>>
  return
}

// -----

dist.grid @h node[2], cpu[2]
func.func @two_blocks() {
  // expected-error @+1 {{dimension 0 is partitioned differently at level 0 and level 1}}
  %a = dist.alloc : !dist.tensor<8xf64, #dist.layout<@h, "x -> x" block_cyclic(2), "x -> x" block_cyclic(3)>>
  return
}

// -----

// 10 rows on 2 nodes are 5 per node, 3 and 2 per CPU; one level would give
// 3, 3, 3, 1.
dist.grid @h node[2], cpu[2]
// expected-error @+1 {{dimension 0 (extent 10) is blocked over 2 part(s) and each part blocked again over 2 at level 1: the nested blocks (ceil(10/2) = 5 per part) are not the one-level blocks of ceil(10/4) = 3; use an extent with ceil(n/2) == 2 * ceil(n/4) (e.g. a multiple of 4), cyclic at every level, or partition the dimension at one level only}}
func.func @inexact(%a: !dist.tensor<10xf64, #dist.layout<@h, "x -> x", "x -> x">>) {
  return
}

// -----

dist.grid @h node[2], cpu[2, 2]
func.func @skew() {
  // expected-error @+1 {{dimension 0 is skewed at level 1 and partitioned at 2 levels; a skew flattens only on a dimension that one level partitions}}
  %a = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@h, [(0) blocked, ()], [(0) blocked skew(1), ()]>>
  return
}

// -----

dist.grid @h node[2], cpu[2]
func.func @sparse() {
  // expected-error @+1 {{sparse tensors are stored on one-level machines only}}
  %a = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> x", "xy -> y">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>
  return
}

// -----

// expected-error @+1 {{grid 'g': level 1 is made of node but dist-flatten-machines lowers machines of nodes whose innermost level is cpu or gpu (node[..], ..., cpu[..] or gpu[..]); write level 1 as cpu[..] or gpu[..]}}
dist.grid @g node[2], node[4]

// -----

// expected-error @+1 {{grid 'c': level 0 is made of cpu but dist-flatten-machines lowers machines of nodes whose innermost level is cpu or gpu (node[..], ..., cpu[..] or gpu[..]); write level 0 as node[..]}}
dist.grid @c cpu[2], cpu[2]
