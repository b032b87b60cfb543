// -pc: the stages, then the ops by time with NOT_RUN rows (constants, ops fused into others)
// hidden, then a summary by op type; -pcsort no_sort keeps every row in execution order.
// The default device is CPU (jit_ exec types).
// RUN: lowpass-run %s --random-inputs 0 -pc | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 -pcsort no_sort | filecheck %s --check-prefix=ALL
// RUN: lowpass-run %s --random-inputs 0 -pcsort simple_sort | filecheck %s --check-prefix=SIMPLE

// CHECK:      name {{ *}}type {{ *}}exec type {{ *}}status {{ *}}realTime (us) {{ *}}%
// CHECK:      5. output postprocessing
// CHECK-NOT:  NOT_RUN
// (the share column is empty when the ops took under a microsecond in all: a fast host)
// CHECK-DAG:  fc {{ *}}MatMul {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED {{ *}}{{[0-9.]+( *[0-9.]+%)?$}}
// CHECK-DAG:  sig {{ *}}Sigmoid {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// CHECK:      (2 NOT_RUN rows hidden: constants and ops fused into others; -pcsort no_sort shows them)
// CHECK-NEXT: Total time of the ops: {{[0-9.]+}} us; request latency {{[0-9.]+}} us
// CHECK-NEXT: Summary by op type:
// CHECK-NEXT: type {{ *}}ops {{ *}}realTime (us) {{ *}}%
// CHECK-DAG:  MatMul {{ *}}1 {{ *}}{{[0-9.]+}}
// CHECK-DAG:  Sigmoid {{ *}}1 {{ *}}{{[0-9.]+}}

// ALL:        5. output postprocessing
// ALL-NEXT:   w {{ *}}Constant {{.*}} NOT_RUN
// ALL-NEXT:   fc {{ *}}MatMul {{.*}} EXECUTED
// ALL-NEXT:   relu {{ *}}Relu {{ *}}undef {{ *}}NOT_RUN
// ALL-NEXT:   sig {{ *}}Sigmoid {{.*}} EXECUTED
// ALL-NEXT:   Total time of the ops

// SIMPLE:      5. output postprocessing
// SIMPLE-NEXT: fc {{ *}}MatMul
// SIMPLE-NEXT: sig {{ *}}Sigmoid
// SIMPLE-NEXT: (2 NOT_RUN rows hidden

func.func @main(%x: tensor<1x64xf32> {ov.name = "x"}) -> (tensor<1x16xf32> {ov.name = "out"}) {
  %w = ov.constant dense<0.5> : tensor<64x16xf32> {ov.name = "w"}
  %m = ov.mat_mul %x, %w {ov.name = "fc"} : (tensor<1x64xf32>, tensor<64x16xf32>) -> tensor<1x16xf32>
  %r = ov.relu %m {ov.name = "relu"} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = ov.sigmoid %r {ov.name = "sig"} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %s : tensor<1x16xf32>
}
