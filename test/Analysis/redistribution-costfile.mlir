// RUN: dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-latency.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAT
// RUN: dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-bandwidth.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=BW
// RUN: dist-opt %s --dist-plan-redistribution="alpha=2e-3 beta=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-bad-key.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-twice.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-bad-refined.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFINED
// RUN: dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-refined.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAT
// RUN: not dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-bad-value.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=VAL
// RUN: not dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/costs-missing-beta.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: not dist-opt %s --dist-plan-redistribution=cost-file=%S/Inputs/no-such-file.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not dist-opt %s --dist-materialize-spmd=cost-file=%S/Inputs/no-such-file.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: dist-opt %s --dist-materialize-spmd=cost-file=%S/Inputs/costs-latency.txt | FileCheck %s --check-prefix=LOWER
// The planner's alpha-beta model read from a cost file (the format
// benchmarks/calibrate/calibrate writes); the file overrides alpha/beta.

// Allgather over {2, 3} (4 processes), 16x16 on [(0),(1)] of a 2x2x2x2
// mesh: n = 64 elements per process after the step.
// log2(4) alpha = 2 ms with alpha = 1 ms and beta = 0:
// LAT: remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes [2, 3] -> [(0), (1)] (0.002 s); predicted 0.002 s
// (4 - 1) * 64 / 4 * beta = 4.8e-05 s with beta = 1 us and alpha = 0:
// BW: remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes [2, 3] -> [(0), (1)] (4.8e-05 s); predicted 4.8e-05 s
// OPT: remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes [2, 3] -> [(0), (1)] (0.004 s); predicted 0.004 s

// KEY: error: {{.*}}costs-bad-key.txt:2: unknown key 'delta' (expected alpha, beta or gamma, or one of them followed by '.' and a name, e.g. alpha.allgather or gamma.gemm.128)
// TWICE: error: {{.*}}costs-twice.txt:4: key 'alpha.allgather' is set twice
// REFINED: error: {{.*}}costs-bad-refined.txt:3: unknown key 'alpha.'
// The refined keys (benchmarks/calibrate) are read and the planner keeps
// to alpha and beta: costs-refined.txt plans as costs-latency.txt (LAT).
// VAL: error: {{.*}}costs-bad-value.txt:1: expected 'alpha <seconds>' with a number in [0, 1], got 'alpha fast'
// MISS: error: cost file '{{.*}}costs-missing-beta.txt' must set both alpha and beta
// NOFILE: error: cannot read cost file '{{.*}}no-such-file.txt': No such file or directory

// LOWER: dist.redist_allgather

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0,2),(1,3)]">>
!D = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0),(1)]">>
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}
