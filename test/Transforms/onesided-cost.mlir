// RUN: dist-opt %s -split-input-file --dist-report-communication=quiet 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: dist-opt %s -split-input-file --dist-report-communication="quiet cost-file=%S/Inputs/onesided-words.txt" 2>&1 | FileCheck %s --check-prefix=WORDS
// RUN: dist-opt %s -split-input-file --dist-report-communication="quiet cost-file=%S/Inputs/onesided-no-gamma.txt" 2>&1 | FileCheck %s --check-prefix=AB
// RUN: dist-opt %s -split-input-file --dist-materialize-spmd | FileCheck %s --check-prefix=LOWER
// RUN: dist-opt %s -split-input-file --dist-materialize-spmd=cost-file=%S/Inputs/onesided-words.txt | FileCheck %s --check-prefix=LOWER-WORDS
// RUN: not dist-opt %s -split-input-file --dist-report-communication=cost-file=%S/Inputs/onesided-bad-gamma.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dist-opt %s -split-input-file --dist-materialize-spmd=cost-file=%S/Inputs/onesided-big-gamma.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not dist-opt %s -split-input-file --dist-report-communication=cost-file=%S/Inputs/no-such-file.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
// stationary(auto) picks the stationary tensor with the least time under
// the alpha-beta-gamma model (docs/onesided.md): alpha per one-sided
// message, beta per word, gamma per flop, from the planner's cost file
// (gamma optional) or the defaults (1e-6, 1e-9, 1e-10). The report prints
// the three estimates with their parts; the lowering uses the same choice.

// alpha decides: with words only, C (ties with A; C's words are the fewest)
// stays; but B's block-cyclic blocks of 2 x 2 make stationary A or C
// fetch (or accumulate) about 49000 small pieces per process, against 768
// for stationary B, which moves more words in fewer, larger messages.
dist.grid @m [2, 2]
!A = !dist.tensor<512x512xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>
!B = !dist.tensor<512x512xf64, #dist.layout<@m, [(0) block_cyclic(2), (1) block_cyclic(2)]>>
!C = !dist.tensor<512x512xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>
// FULL: remark: one-sided product (docs/onesided.md): stationary 'B' (chosen by the cost model); the model's seconds per process (alpha 1e-06, beta 1e-09, gamma 1e-10): stationary A 0.0561 = 0.0492 + 0.000197 + 0.00671 (4.92e+04 messages, 1.97e+05 words, 6.71e+07 flops); stationary B 0.00777 = 0.000768 + 0.000295 + 0.00671 (768 messages, 2.95e+05 words, 6.71e+07 flops); stationary C 0.0561 = 0.0492 + 0.000197 + 0.00671 (4.92e+04 messages, 1.97e+05 words, 6.71e+07 flops); slices
// WORDS: remark: one-sided product (docs/onesided.md): stationary 'C' (chosen by the cost model); the model's seconds per process (alpha 0, beta 1e-09, gamma 0): stationary A 0.000197 = 0 + 0.000197 + 0 ({{.*}}); stationary B 0.000295 = 0 + 0.000295 + 0 ({{.*}}); stationary C 0.000197 = 0 + 0.000197 + 0
// AB: remark: one-sided product (docs/onesided.md): stationary 'B'
// LOWER-LABEL: func.func @alpha(
// LOWER: dist.onesided_matmul {{.*}} stationary B
// LOWER-WORDS-LABEL: func.func @alpha(
// LOWER-WORDS: dist.onesided_matmul {{.*}} stationary C
func.func @alpha(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(auto)] : !C, !A, !B
  return
}

// -----

// gamma decides: C is fixed to the face y = 0 (two of the four processes
// hold it), so with C stationary those two run all the GEMMs (1.34e8 flops
// each, twice the others'); it moves the fewest words, and without gamma C
// is chosen; with it, the replicated B (its four copies splitting the
// work).
dist.grid @m [2, 2]
!A = !dist.tensor<512x512xf64, #dist.layout<@m, [(), (0, 1) blocked]>>
!B = !dist.tensor<512x512xf64, #dist.layout<@m, [(), ()]>>
!C = !dist.tensor<512x512xf64, #dist.layout<@m, "xy -> x0">>
// FULL: remark: one-sided product (docs/onesided.md): stationary 'B' (chosen by the cost model); the model's seconds per process (alpha 1e-06, beta 1e-09, gamma 1e-10): stationary A 0.00697 = 1e-06 + 0.000262 + 0.00671 (1 messages, 2.62e+05 words, 6.71e+07 flops); stationary B 0.00683 = 1e-06 + 0.000115 + 0.00671 (1 messages, 1.15e+05 words, 6.71e+07 flops); stationary C 0.0135 = 3e-06 + 9.83e-05 + 0.0134 (3 messages, 9.83e+04 words, 1.34e+08 flops); slices
// WORDS: remark: one-sided product (docs/onesided.md): stationary 'C' (chosen by the cost model)
// AB: remark: one-sided product (docs/onesided.md): stationary 'C' (chosen by the cost model); the model's seconds per process (alpha 1e-06, beta 1e-09, gamma 0): stationary A 0.000263 = {{.*}}; stationary B 0.000116 = {{.*}}; stationary C 0.000101 = 3e-06 + 9.83e-05 + 0 (3 messages, 9.83e+04 words, 1.34e+08 flops)
// LOWER-LABEL: func.func @gamma(
// LOWER: dist.onesided_matmul {{.*}} stationary B
// LOWER-WORDS-LABEL: func.func @gamma(
// LOWER-WORDS: dist.onesided_matmul {{.*}} stationary C
func.func @gamma(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(auto)] : !C, !A, !B
  return
}

// The cost file's errors, from the report and from the lowering.
// BAD: error: {{.*}}onesided-bad-gamma.txt:3: expected 'gamma <seconds>' with a number in [0, 1], got 'gamma many'
// BIG: error: {{.*}}onesided-big-gamma.txt:3: expected 'gamma <seconds>' with a number in [0, 1], got 'gamma 2'
// NOFILE: error: cannot read cost file '{{.*}}no-such-file.txt': No such file or directory
