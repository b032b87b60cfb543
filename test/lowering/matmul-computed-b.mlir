// MatMul by a B computed at run time: LPT's product of two quantized activations
// (MatMul(u8, i8) -> Multiply by the folded scales) and an fp32 MatMul of two inputs with
// transpose_b. Both are native GEMMs whose B is packed by each call: I8 on the exact
// s16 path (vpmaddwd; vpdpbusd with VNNI; never the saturating vpmaddubsw), FP32 with FMA;
// the scale is fused. No fallback call; the int8 output equals REFERENCE's byte for byte
// (the fp32 one is compared with a tolerance by test_matmul_conv.py).
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s --check-prefix=IR < %t.ll
// RUN: not grep -q "call i32 %%fallback" %t.ll
// RUN: not grep -q "pmadd.ub.sw" %t.ll
// RUN: rm -rf %t.cpu %t.ref
// RUN: lowpass-run %s --random-inputs 0 --device CPU --save-outputs %t.cpu > %t.cpu.txt
// RUN: lowpass-run --device REFERENCE %s --random-inputs 0 --save-outputs %t.ref > %t.ref.txt
// RUN: cmp %t.cpu/y.npy %t.ref/y.npy
// ROWS:      mm {{ *}}MatMul {{ *}}jit_{{[a-z0-9]+}}_I8 {{ *}}EXECUTED
// ROWS-NEXT: scale {{ *}}Constant
// ROWS-NEXT: dequantize {{ *}}Multiply {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: mm_f32 {{ *}}MatMul {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// IR:        define {{.*}}i32 @lowpass_main(
// IR-DAG:    declare <{{8|16}} x i32> @llvm.x86.{{avx2.pmadd.wd|avx512.vpdpbusd.256|avx512.vpdpbusd.512}}(
// IR-DAG:    declare <8 x float> @llvm.fmuladd.v8f32(
builtin.module {
  func.func @main(%a: tensor<2x8xui8> {ov.name = "a"}, %b: tensor<8x4xi8> {ov.name = "b"}, %x: tensor<3x5xf32> {ov.name = "x"}, %w: tensor<6x5xf32> {ov.name = "w"}) -> (tensor<2x4xf32> {ov.name = "y"}, tensor<3x6xf32> {ov.name = "z"}) {
    %0 = ov.mat_mul %a, %b {ov.name = "mm"} : (tensor<2x8xui8>, tensor<8x4xi8>) -> tensor<2x4xf32>
    %1 = ov.constant dense<1.000000e-04> : tensor<f32> {ov.name = "scale"}
    %2 = ov.multiply %0, %1 {ov.name = "dequantize"} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %3 = ov.mat_mul %x, %w transpose_b = true {ov.name = "mm_f32"} : (tensor<3x5xf32>, tensor<6x5xf32>) -> tensor<3x6xf32>
    func.return %2, %3 : tensor<2x4xf32>, tensor<3x6xf32>
  }
}
