// Keras model 'bilstm_seq': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x?x8xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_959620}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5, 6], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x8xf32>
    return %0 : tensor<2x?x8xf32>
  }
  func.func private @__inference__wrapped_model_905000(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x8xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_90500", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_1 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[0.141425461, 0.128963158, 0.0704388767, 0.346879721, -0.334058762, 0.0902446135, 0.432589293, 0.510845661, 0.26316911, -0.200125232, 0.179253176, -0.00319617987, -0.200609058, -0.0118822604, -0.2217502, 0.408867717], [0.0838718265, -0.513904631, 0.11481297, 0.404204965, 0.211673766, -0.0723136067, 0.20748359, 9.769800e-02, -0.252705693, -0.25141871, -0.024733901, 0.478917718, -0.00472325087, 0.191859037, -0.322248966, -0.536342084], [0.160274625, -0.182340339, -0.280655116, 0.371878088, -0.404978186, -0.698760629, 0.0315556675, -0.336546183, 0.00842060894, 0.34685871, 0.214463428, -0.526363254, -0.48225823, -0.235332564, -0.139497206, 0.449913234], [-0.12364886, 3.243350e-01, -0.0270803422, -0.292247087, -0.029598549, -0.22819978, 0.161108851, -0.358881056, 0.261715233, 0.295208782, -0.264803916, -0.423615396, -0.0762953162, -0.173806548, 0.350733489, -0.411566585]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %0 = "tf.Identity"(%cst_2) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_3 = "tf.Const"() <{value = dense<[-0.0920387655, 0.148639455, -0.0164956748, 0.0162108745, 0.941856682, 1.230914, 0.995705485, 0.559916854, -0.138414517, -0.39375931, -0.650287687, -0.106023073, 0.26671198, 0.00942398142, -0.23450914, -0.188139975]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %1 = "tf.Identity"(%cst_3) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[0.200175732, -0.0677251517, -0.117976919, 0.063831076, -0.0861392393, 0.022880584, 0.0635622293, -0.171231598, 0.255144447, 0.223157138, 0.283412725, 0.053402409, 0.0939545333, 0.405853748, -0.39110437, -0.719698846], [-0.166183338, -0.405415088, 0.65009582, -4.715810e-01, -0.242903545, 0.394826651, -0.227179319, -0.497233391, -0.395283908, 0.085784927, 0.136751622, 0.33572033, -0.0175175071, -0.649052798, 5.676510e-01, -0.249349773], [-0.28610903, 0.596023798, 0.0366510749, 0.0443025231, -5.700190e-02, 0.120249957, 0.0710068941, 0.076884374, -0.557950497, -0.227324128, -0.224359989, 0.545254171, -0.0117133632, 0.098865889, -0.0993057042, -0.320199668]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %2 = "tf.Identity"(%cst_4) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %cst_5 = "tf.Const"() <{value = dense<[[-0.200389832, 0.522156596, -0.0652127117, -0.335456908, -0.139622927, -0.201545984, 0.367016494, 0.20696196, 0.099016726, 0.165458143, 0.0615161359, 0.190351263, -0.148432449, -0.421742857, -0.415874809, 0.110044286], [-0.0247093588, -0.123902932, 0.0339994431, -0.0840972363, -0.687508821, 0.00323487818, 0.196409583, -0.486701965, -0.473655075, 0.241380379, 0.0816383809, 0.34505415, -0.0400128327, -0.355270237, 0.0863013267, -0.209515959], [-0.202154756, 0.202400163, 0.419969678, -0.295117468, -0.490040421, 0.0148372799, 0.227736056, -0.186545655, 0.562258482, -0.065812394, -0.235576928, 0.130162209, -0.220019698, 5.880200e-01, 0.173656315, 0.174227208], [-0.691417276, -0.136213735, -0.175919056, -0.207724541, 0.109516896, -0.188284457, 0.346754104, 0.783279657, -0.27505675, 0.401370108, -0.108597919, 0.0715742633, -0.3103531, 0.194109902, 0.253124952, 0.0080281347]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %3 = "tf.Identity"(%cst_5) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_6 = "tf.Const"() <{value = dense<[-0.206735164, -0.0158362631, 0.00705736969, -0.210896924, 1.05196786, 0.828408718, 1.1944133, 1.03854918, 0.0178612974, -0.118205674, -0.023721965, -0.399549246, -0.226281494, 0.0725679621, -0.42571342, 0.169321701]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %4 = "tf.Identity"(%cst_6) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_7 = "tf.Const"() <{value = dense<[[-0.204957232, 0.318101019, 0.455329478, -0.369705677, -0.217118889, -0.17944102, -0.218350649, 0.441898167, -0.0127712488, 0.378366172, 0.599605322, -0.0199230537, -0.0439527631, -0.72524333, -0.491470814, -0.377938241], [-0.478406399, -0.446657419, 0.00615280867, -0.190419286, -0.0319287479, -0.124294341, 0.0746313631, 0.0770200565, 0.405590266, -0.337071091, -1.01152253, -0.421929747, -0.160296544, -0.123542316, 0.123148054, -0.269632727], [0.356583595, -0.39083463, -0.00675925612, -6.928860e-02, -0.223963782, 0.642370998, -0.167145312, 0.134260148, -0.262869596, 0.0196134523, 0.301954031, -0.275209337, -0.094734013, -0.546213627, 0.049704507, -0.355884105]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %5 = "tf.Identity"(%cst_7) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %6:5 = "tf.PartitionedCall"(%arg0, %cst_1, %cst_1, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_902170}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %7 = "tf.ReverseV2"(%6#1, %cst_0) {device = ""} : (tensor<2x?x4xf32>, tensor<1xi32>) -> tensor<2x?x4xf32>
    %8:5 = "tf.PartitionedCall"(%arg0, %cst_1, %cst_1, %5, %3, %4) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_897940}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %9 = "tf.ConcatV2"(%8#1, %7, %cst) {device = ""} : (tensor<2x?x4xf32>, tensor<2x?x4xf32>, tensor<i32>) -> tensor<2x?x8xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
    return %10 : tensor<2x?x8xf32>
  }
  func.func private @__inference_signature_wrapper_959620(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x8xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_95962", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_905000}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5, 6], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x8xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
    return %1 : tensor<2x?x8xf32>
  }
  func.func private @__inference_standard_lstm_897940(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_89794", tf.api_implements = "lstm_374a5711-5129-4d16-a7ae-c99456a2c8fc", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_5, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_4) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %3:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %2, %arg3, %arg4, %arg5) <{body = @while_body_897090, cond = @while_cond_897080, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_5) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_3, %cst_6, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_1) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @__inference_standard_lstm_902170(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_90217", tf.api_implements = "lstm_825edbf7-f63b-4f9d-88bc-61fb5dd753e4", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_6, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.ReverseV2"(%1, %cst_4) {device = ""} : (tensor<5x2x3xf32>, tensor<1xi32>) -> tensor<5x2x3xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_5) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %4:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %3, %arg3, %arg4, %arg5) <{body = @while_body_901320, cond = @while_cond_901310, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.Identity"(%4#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %7 = "tf.TensorListStack"(%4#3, %cst_6) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %8 = "tf.StridedSlice"(%7, %cst_3, %cst_4, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Transpose"(%7, %cst_1) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %12 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %9, %11, %5, %6, %12 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_897090(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_89709"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
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
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_body_901320(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_90132"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
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
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_cond_897080(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_89708"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
  func.func private @while_cond_901310(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_90131"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
