// keras_stacked_lstm: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x2xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_1 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[-0.317502856, -0.240966827, 0.118763141, 0.0831826701, 0.375059783, 0.122716762, 3.798630e-01, -0.204518124, -0.435071617, -0.44945702, 0.0264332537, 0.293687791], [-0.107642375, 0.0495921224, -0.191053107, 0.302706122, -0.229911461, 0.264406621, -0.482198536, -7.417780e-02, -0.35924688, -0.281329274, 0.424246222, -0.329915643], [0.0163314864, 0.104910478, 0.214412436, -0.595076621, 0.0932181179, -0.515092492, -0.240193605, -0.135912716, -0.33776027, 0.039939478, 0.349358708, 0.0271024071]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_3 = "tf.Const"() <{value = dense<[[0.195007086, -0.512121201, 0.511830151, 0.589647591, 0.190325379, -0.213384956, 0.386151135, -0.595211505, -0.163852662, 0.0244302154, 0.0837948918, -0.551875353], [0.562259495, 0.461272299, -0.035805583, -0.595543504, 0.542779386, 0.370969057, -0.00403898954, 0.537444413, 0.157324374, -0.276234716, -0.00359934568, 0.387376189], [0.0983530879, 0.3711676, -0.0253924727, 0.342384398, 0.0679749846, 0.441293061, -0.594640613, 0.105522335, 0.138461471, 0.283375204, -0.115654826, -5.562800e-02], [0.257894933, 0.303614259, -0.0523328781, 0.199772239, -0.202375025, -0.503452063, -0.399521142, 0.367628098, -0.0767697691, -0.425350487, 3.225760e-01, -0.30839479]]> : tensor<4x12xf32>}> {device = ""} : () -> tensor<4x12xf32>
    %cst_4 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<16xf32>}> {device = ""} : () -> tensor<16xf32>
    %cst_5 = "tf.Const"() <{value = dense<[[0.272068501, 0.146659657, 0.301404178, 0.200275332, -0.438322157, -0.180939883, -0.0269964952, -0.379366487, 1.96400215E-5, 0.0168344602, 0.265935838, 0.244321883, 0.388316512, -0.143210337, 0.181672975, 2.626770e-01], [0.118966974, -0.13757576, -0.217103019, 3.225840e-01, -0.0692872107, 0.345825881, -0.405424058, -0.100655392, 0.206491277, 0.175074637, -0.253768086, 0.00310799852, 0.377482235, -0.135307193, -0.0458254218, -0.465005934], [-0.391068369, 0.0504073352, -0.0546674728, -0.312475204, -0.27601549, 0.36174953, -0.298937738, -0.242645025, -0.125411525, 0.446837962, -0.00884986669, -0.0374574959, -0.124451816, 0.214117199, 0.219718382, 0.249246389], [-0.142100245, -0.387186646, 0.229415238, 0.448720574, 0.286280572, 0.228842765, -0.324504673, 0.0292681102, -0.266407102, -0.203355789, 0.204228461, 0.264265925, -0.102657095, 0.157341808, -0.0885868222, 0.261558175]]> : tensor<4x16xf32>}> {device = ""} : () -> tensor<4x16xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.0171813369, -0.209162116, 0.371251166, -0.430946112, -0.115098298, -0.343188614, -0.00101858377, 0.533188224, 0.0594371557, -0.068511933, 0.30776906, 0.0858342051, 0.0100308061, -0.0302987099, -0.389304191, 0.158256471], [-0.0162741542, 0.510884523, -0.321302176, -0.406531274, 0.262538195, 2.186290e-01, 0.20611918, 0.407329679, 0.0913556814, 0.517736673, -0.284403741, -0.155199915, -0.0368381143, 0.277273953, 0.442327976, -0.0574642718], [-0.346471578, -0.053971827, -0.491021216, 0.323430479, 0.467941165, 0.437089324, 0.262028098, 0.38674742, 0.291958451, -0.467925936, 0.276529431, 0.313790441, 0.212073803, -0.261688858, 0.399505436, 0.511808515], [-0.420061797, 0.0710256099, 0.429752707, 0.382479429, -2.385940e-01, 0.485734105, -0.351930141, 0.349059701, -0.0657245517, -0.506020844, -0.264624864, 0.486669421, -0.149359792, 0.106220961, 0.506857634, 0.348195851]]> : tensor<4x16xf32>}> {device = ""} : () -> tensor<4x16xf32>
    %cst_7 = "tf.Const"() <{value = dense<[[-0.102190495, -0.678656101], [0.553312182, -0.641003668], [-0.233129323, 0.457026839]]> : tensor<3x2xf32>}> {device = ""} : () -> tensor<3x2xf32>
    %cst_8 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
    %0 = "tf.Identity"(%cst_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "tf.Identity"(%cst_7) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %2 = "tf.Identity"(%cst_6) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %4 = "tf.Identity"(%cst_5) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %6 = "tf.Identity"(%cst_4) {_has_manual_control_dependencies = true, device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %8 = "tf.Identity"(%cst_3) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %10 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %12 = "tf.Identity"(%cst_1) {_has_manual_control_dependencies = true, device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %13 = "tf.Identity"(%12) {device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %14:5 = "tf.PartitionedCall"(%arg0, %cst_0, %cst_0, %3, %5, %7) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_11490}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %15 = "tf.Identity"(%14#1) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %16:5 = "tf.PartitionedCall"(%15, %cst, %cst, %9, %11, %13) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_15730}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x?x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %17 = "tf.MatMul"(%16#0, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %18 = "tf.BiasAdd"(%17, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %19 = "tf.Identity"(%18) {device = ""} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %19 : tensor<2x2xf32>
  }
  func.func private @__inference_standard_lstm_11490(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<4x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_0d22ec85-50b7-4fc7-a35b-0e68d18b9b2d", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_4, %cst_7) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_4) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %3:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_7, %2, %arg3, %arg4, %arg5) <{body = @while_body_10640, cond = @while_cond_10630, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x16>, #tf_type.shape<4x16>, #tf_type.shape<16>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_4) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_3, %cst_5, %cst_6) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_1) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @__inference_standard_lstm_15730(%arg0: tensor<2x?x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x3xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_e8b80011-e011-4a8a-9d26-c3e7ccf02e77", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_8, %cst_9) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x?x4xf32>, tensor<3xi32>) -> tensor<?x2x4xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_7) {device = ""} : (tensor<?x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %3:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %arg1, %arg2, %cst, %2, %arg3, %arg4, %arg5) <{body = @while_body_14870, cond = @while_cond_14860, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x12>, #tf_type.shape<3x12>, #tf_type.shape<12>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_8) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<1x2x3xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<1x2x3xf32>, tensor<3xi32>) -> tensor<2x1x3xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @while_body_10640(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<4x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %7:4 = "tf.Split"(%cst_0, %6) {device = ""} : (tensor<i32>, tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %8 = "tf.Sigmoid"(%7#0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Sigmoid"(%7#1) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Mul"(%9, %arg5) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Sigmoid"(%7#3) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Tanh"(%7#2) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.Mul"(%8, %12) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.AddV2"(%10, %13) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.Tanh"(%14) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Mul"(%11, %16) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.TensorListSetItem"(%arg3, %arg2, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_cond_10630(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg8: tensor<4x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
  func.func private @while_body_14870(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %7:4 = "tf.Split"(%cst_1, %6) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
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
    %19 = "tf.TensorListSetItem"(%arg3, %cst_0, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_14860(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg8: tensor<4x12xf32>, %arg9: tensor<3x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
