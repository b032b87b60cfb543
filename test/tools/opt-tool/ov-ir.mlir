// OpenVINO IR out and back in: --emit=ov-ir writes IR v11 (.xml + .bin) with OpenVINO's
// layer types, opset versions, friendly names and variables; reading it gives the program back.
// RUN: opt-tool %s --emit=ov-ir -o %t.xml
// RUN: filecheck %s --input-file=%t.xml --check-prefix=XML
// RUN: opt-tool %t.xml | filecheck %s --check-prefix=BACK
// RUN: opt-tool %t.xml --emit=ov-ir -o %t2.xml && opt-tool %t2.xml | filecheck %s --check-prefix=BACK

// XML:      <net name="main" version="11">
// XML:      <layer id="{{[0-9]+}}" name="data" type="Parameter" version="opset1">
// XML:        <data shape="1,4" element_type="f32"
// XML:      name="scale" type="Const" version="opset1">
// XML-NEXT:   <data element_type="f32" shape="4" offset="0" size="16"
// XML:      name="acc/read" type="ReadValue" version="opset6">
// XML-NEXT:   <data variable_id="acc" variable_type="f32" variable_shape="1,4"
// XML:      name="fq" type="FakeQuantize" version="opset1">
// XML-NEXT:   <data levels="256" auto_broadcast="numpy"
// XML:      name="acc/write" type="Assign" version="opset6">
// XML-NEXT:   <data variable_id="acc"
// XML:      type="Result" version="opset1"

// BACK:      ov.variable @acc : tensor<1x4xf32>
// BACK:      func.func @main(%data: tensor<1x4xf32> {ov.name = "data"}) -> (tensor<1x4xf32> {ov.name = "out"})
// BACK-DAG:    %[[R:.*]] = ov.read_value @acc init(%{{.*}} : tensor<1x4xf32>) {ov.name = "acc/read"} : tensor<1x4xf32>
// BACK-DAG:    %[[S:.*]] = ov.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> {ov.name = "scale"}
// BACK-DAG:    %[[M:.*]] = ov.multiply %data, %[[S]] {ov.name = "mul"}
// BACK:        %[[A:.*]] = ov.add %[[R]], %[[M]] {ov.name = "out"}
// BACK:        %[[Q:.*]] = ov.fake_quantize %[[A]], {{.*}} levels = 256 {ov.name = "fq"}
// BACK:        ov.assign @acc, %[[Q]] {ov.name = "acc/write"} : tensor<1x4xf32>
// BACK:        func.return %[[A]] : tensor<1x4xf32>

builtin.module {
  ov.variable @acc : tensor<1x4xf32>
  func.func @main(%data: tensor<1x4xf32> {ov.name = "data"}) -> (tensor<1x4xf32> {ov.name = "out"}) {
    %s = ov.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> {ov.name = "scale"}
    %m = ov.multiply %data, %s {ov.name = "mul"} : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    %z = ov.constant dense<0.0> : tensor<1x4xf32> {ov.name = "zero"}
    %r = ov.read_value @acc init(%z : tensor<1x4xf32>) {ov.name = "acc/read"} : tensor<1x4xf32>
    %a = ov.add %r, %m {ov.name = "out"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %lo = ov.constant dense<-8.0> : tensor<f32>
    %hi = ov.constant dense<8.0> : tensor<f32>
    %q = ov.fake_quantize %a, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq"} : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    ov.assign @acc, %q {ov.name = "acc/write"} : tensor<1x4xf32>
    func.return %a : tensor<1x4xf32>
  }
}
