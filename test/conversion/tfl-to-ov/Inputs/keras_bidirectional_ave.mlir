// keras_bidirectional_ave: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x5x2xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[-0.102190495, -0.678656101], [0.553312182, -0.641003668], [-0.233129323, 0.457026839]]> : tensor<3x2xf32>}> {device = ""} : () -> tensor<3x2xf32>
    %cst_2 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
    %cst_3 = "tf.Const"() <{value = dense<[2, 5, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_4 = "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[[0.383081675, -0.175009742, 0.111583628, -0.206227496, 0.281994402, 0.384014189, -0.394881874, 0.342722267, -0.0380119756, -0.326598853, -3.393290e-01, 0.209774345], [0.140710771, 0.161732063, -0.319150805, 0.0209301598, 0.305207402, -0.493430704, 2.563850e-01, 0.282922864, -0.351668805, -0.474748075, 0.0556803197, -0.131098405], [-0.419466108, -0.144193262, 0.45965746, 0.121904187, -0.365633547, -0.131595284, -0.283893287, 0.359992057, -0.343575031, -0.192717314, -0.0092042312, -0.246267587]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.0192093253, -0.23385033, 0.415071428, -0.481812418, -0.128683805, -0.383696556, -0.00113880634, 0.596122563, 6.645280e-02, -0.0765987038, 0.344096243, 0.0959655642], [0.0112147927, -0.0338749886, -0.435255319, 0.17693609, -0.0181950927, 0.571186364, -0.359226763, -0.454515755, 0.293526649, 0.244434655, 0.230448246, 0.455408394], [0.102138758, 0.57884711, -0.317973047, -0.173518807, -0.0411862731, 0.310001671, 0.494537652, -0.0642470121, -3.873670e-01, -0.0603423715, -0.548978388, 0.3616063], [0.523174226, 0.48868078, 0.292956352, 0.43239671, 0.326419473, -0.52315712, 0.309169292, 0.35082835, 0.237105727, -0.292577028, 0.446660578, 0.572219312]]> : tensor<4x12xf32>}> {device = ""} : () -> tensor<4x12xf32>
    %cst_7 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
    %cst_8 = "tf.Const"() <{value = dense<[[-0.317502856, -0.240966827, 0.118763141, 0.0831826701, 0.375059783, 0.122716762, 3.798630e-01, -0.204518124, -0.435071617, -0.44945702, 0.0264332537, 0.293687791], [-0.107642375, 0.0495921224, -0.191053107, 0.302706122, -0.229911461, 0.264406621, -0.482198536, -7.417780e-02, -0.35924688, -0.281329274, 0.424246222, -0.329915643], [0.0163314864, 0.104910478, 0.214412436, -0.595076621, 0.0932181179, -0.515092492, -0.240193605, -0.135912716, -0.33776027, 0.039939478, 0.349358708, 0.0271024071]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_9 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_10 = "tf.Const"() <{value = dense<[[0.195007086, -0.512121201, 0.511830151, 0.589647591, 0.190325379, -0.213384956, 0.386151135, -0.595211505, -0.163852662, 0.0244302154, 0.0837948918, -0.551875353], [0.562259495, 0.461272299, -0.035805583, -0.595543504, 0.542779386, 0.370969057, -0.00403898954, 0.537444413, 0.157324374, -0.276234716, -0.00359934568, 0.387376189], [0.0983530879, 0.3711676, -0.0253924727, 0.342384398, 0.0679749846, 0.441293061, -0.594640613, 0.105522335, 0.138461471, 0.283375204, -0.115654826, -5.562800e-02], [0.257894933, 0.303614259, -0.0523328781, 0.199772239, -0.202375025, -0.503452063, -0.399521142, 0.367628098, -0.0767697691, -0.425350487, 3.225760e-01, -0.30839479]]> : tensor<4x12xf32>}> {device = ""} : () -> tensor<4x12xf32>
    %0 = "tf.Identity"(%cst_10) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %2 = "tf.Identity"(%cst_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %4 = "tf.Identity"(%cst_7) {_has_manual_control_dependencies = true, device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %6 = "tf.Identity"(%cst_6) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %8 = "tf.Identity"(%cst_5) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %10 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %11 = "tf.Identity"(%cst_1) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %12:5 = "tf.PartitionedCall"(%arg0, %cst_0, %cst_0, %1, %3, %5) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_100300}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %13 = "tf.ReverseV2"(%12#1, %cst_9) {device = ""} : (tensor<2x?x3xf32>, tensor<1xi32>) -> tensor<2x?x3xf32>
    %14:5 = "tf.PartitionedCall"(%arg0, %cst_0, %cst_0, %7, %9, %5) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_96070}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %15 = "tf.AddV2"(%14#1, %13) {device = ""} : (tensor<2x?x3xf32>, tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %16 = "tf.Mul"(%15, %cst) {device = ""} : (tensor<2x?x3xf32>, tensor<f32>) -> tensor<2x?x3xf32>
    %17 = "tf.Reshape"(%16, %cst_4) {device = ""} : (tensor<2x?x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %18 = "tf.MatMul"(%17, %11) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
    %19 = "tf.BiasAdd"(%18, %10) <{data_format = "NHWC"}> {device = ""} : (tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
    %20 = "tf.Tanh"(%19) {device = ""} : (tensor<?x2xf32>) -> tensor<?x2xf32>
    %21 = "tf.Reshape"(%20, %cst_3) {device = ""} : (tensor<?x2xf32>, tensor<3xi32>) -> tensor<2x5x2xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<2x5x2xf32>) -> tensor<2x5x2xf32>
    return %22 : tensor<2x5x2xf32>
  }
  func.func private @__inference_standard_lstm_100300(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x3xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_95808d17-a95b-4d62-aec7-9814044919bb", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_6, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %2 = "tf.ReverseV2"(%1, %cst_4) {device = ""} : (tensor<5x2x4xf32>, tensor<1xi32>) -> tensor<5x2x4xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_5) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %4:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %3, %arg3, %arg4, %arg5) <{body = @while_body_99450, cond = @while_cond_99440, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x12>, #tf_type.shape<3x12>, #tf_type.shape<12>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "tf.Identity"(%4#5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "tf.TensorListStack"(%4#3, %cst_6) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<?x2x3xf32>
    %8 = "tf.StridedSlice"(%7, %cst_3, %cst_4, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tf.Transpose"(%7, %cst_1) {device = ""} : (tensor<?x2x3xf32>, tensor<3xi32>) -> tensor<2x?x3xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %12 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %9, %11, %5, %6, %12 : tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @__inference_standard_lstm_96070(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x3xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_f57634e5-d9e8-4a1e-a366-58154e4377ac", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_5, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_4) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %3:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %2, %arg3, %arg4, %arg5) <{body = @while_body_95220, cond = @while_cond_95210, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x12>, #tf_type.shape<3x12>, #tf_type.shape<12>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_5) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<?x2x3xf32>
    %7 = "tf.StridedSlice"(%6, %cst_3, %cst_6, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Transpose"(%6, %cst_1) {device = ""} : (tensor<?x2x3xf32>, tensor<3xi32>) -> tensor<2x?x3xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %11 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @while_body_99450(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %7:4 = "tf.Split"(%cst_0, %6) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %8 = "tf.Sigmoid"(%7#0) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Sigmoid"(%7#1) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tf.Mul"(%9, %arg5) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "tf.Sigmoid"(%7#3) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Tanh"(%7#2) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "tf.Mul"(%8, %12) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "tf.AddV2"(%10, %13) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "tf.Tanh"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "tf.Mul"(%11, %16) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "tf.TensorListSetItem"(%arg3, %arg2, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_99440(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg8: tensor<4x12xf32>, %arg9: tensor<3x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
  func.func private @while_body_95220(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %7:4 = "tf.Split"(%cst_0, %6) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %8 = "tf.Sigmoid"(%7#0) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Sigmoid"(%7#1) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tf.Mul"(%9, %arg5) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "tf.Sigmoid"(%7#3) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Tanh"(%7#2) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "tf.Mul"(%8, %12) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "tf.AddV2"(%10, %13) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "tf.Tanh"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "tf.Mul"(%11, %16) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "tf.TensorListSetItem"(%arg3, %arg2, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_95210(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg8: tensor<4x12xf32>, %arg9: tensor<3x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
