// Keras model 'bilstm': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x8xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_644890}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5, 6], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
  func.func private @__inference__wrapped_model_589610(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x8xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_58961", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[0.224398121, 0.294292063, -0.465739071, -0.346173793, 0.46079281, 0.158827811, 0.783630847, 0.41419661, 0.201415479, 0.287356973, -0.164848059, 0.177448869, 0.075400561, -0.179037139, 3.125760e-01, 0.372565925], [0.38735044, 0.151413739, 0.283717245, -0.125283897, 0.243177861, -0.0484998077, 0.293374419, -0.0350639299, -0.622225881, 0.57736218, 0.229227304, 0.257803708, -0.149500728, -0.243872955, -0.645639896, 0.0800485312], [0.229101345, -0.0839935243, 0.362626791, 0.429672718, 0.33617726, -0.405811518, 0.531315744, 0.0413428247, 0.0138074048, -0.419339478, 0.213466406, 0.535911143, -0.52177465, 0.274792582, -0.356595635, 0.0456067026], [-0.51303333, -0.0137368739, -0.294297755, -0.373959184, -0.0861067697, -0.357827127, 0.171916962, -0.210819632, -0.101970844, 0.309907705, -0.157766357, -0.407342702, -0.652818918, 0.0361053795, -0.149038762, -0.143502861]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %0 = "tf.Identity"(%cst_1) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_2 = "tf.Const"() <{value = dense<[-0.148034513, -0.131525144, 0.316921085, 0.193875715, 0.916445851, 0.749224782, 1.33469748, 1.3140496, 0.240829065, 0.168309227, -0.377418429, -0.258223921, 0.112987854, -0.0569830388, 0.0510930754, -0.105089501]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %1 = "tf.Identity"(%cst_2) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_3 = "tf.Const"() <{value = dense<[[0.408486784, 0.484131157, 0.328573704, 0.00214785337, 0.451399803, 0.135742962, -0.455304801, 0.254356802, 0.712920427, 0.431100905, -0.25659129, 0.232042968, 0.474558204, -0.306731462, -0.41640383, 0.324688733], [0.0132741779, 0.23040612, 0.506041348, -0.310163021, -0.153324366, 0.542246103, -0.0436534137, 0.0748101473, -0.0266741216, -0.282578409, 0.0229930431, -0.286993384, 0.470912665, 0.231819451, -0.301822245, 0.414182663], [-0.275058895, -0.0496184528, 0.238886312, -0.121771857, 0.187609613, 0.317710459, -0.521684289, 0.0253655687, 0.109215625, -0.0306586921, 0.654136419, 0.536598861, -0.406273365, 0.489892304, 0.0172550175, 0.547500849]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %2 = "tf.Identity"(%cst_3) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[-0.0869558975, 0.0176933706, 0.146138817, -0.432186782, 0.0657973737, -0.100908011, -0.266455948, -0.0859535038, 0.151916236, 0.454319298, -0.2728827, -3.07481736E-4, 0.253015041, -0.334558725, 0.266848147, 0.548761964], [-0.440831363, 0.133187175, -0.491001725, 0.0687875152, -0.159501955, -0.119599245, -0.552223325, -0.36185661, -0.340557516, -0.327795595, -0.425180495, 0.11426276, -0.527881205, -0.616239429, 0.0242700577, 0.32646665], [-0.521251559, 0.208571047, 0.247892827, -0.080685079, 0.285046518, 0.156530827, 0.269714653, 0.285419494, -0.561957479, -0.230297297, -0.0989435762, 0.154314756, -0.36919269, 0.466869652, 0.16113466, -0.369505316], [-0.696522891, -0.221746594, 0.023226127, 0.222470269, 0.33160466, 0.315390527, -0.114280239, 0.342829585, -0.464109302, -0.335424721, 0.330260068, -0.289524347, -0.0464385748, -0.444436669, 0.002533108, -0.335176229]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %3 = "tf.Identity"(%cst_4) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_5 = "tf.Const"() <{value = dense<[0.171738595, 0.259822398, 0.246860221, -0.101668134, 1.02952242, 0.775837957, 1.04128742, 0.865164935, 0.0819766446, -0.0685944557, 0.206751481, 0.165321544, 0.247788936, -0.321059138, -0.363921434, 0.0809484645]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %4 = "tf.Identity"(%cst_5) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[-0.131448805, 0.820183634, -0.366899431, -0.209857494, -0.218780398, 0.449238181, 6.398440e-01, 0.625062227, 0.0186987668, -3.126100e-01, 0.266669631, -0.765318334, -0.325149655, 0.0468024239, -0.450100839, 0.284218818], [0.347982168, 0.575444698, 4.974700e-01, 0.508364916, -0.552787781, -0.269745588, 0.250098526, -0.210079089, -0.873608946, -0.0693260729, 0.433775395, -0.164456725, -0.0434913039, 0.093564473, -0.188258708, 0.489154488], [-0.105831638, 0.00429542921, 0.0763396918, -0.0997222438, -0.318495572, 0.132264107, 0.140598804, -0.36831978, -0.582551777, 0.0862976313, 0.129178897, 0.0848648399, -0.0143536627, 0.385489792, -0.323840886, 0.693798065]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %5 = "tf.Identity"(%cst_6) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %6:5 = "tf.PartitionedCall"(%arg0, %cst_0, %cst_0, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_586780}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %7:5 = "tf.PartitionedCall"(%arg0, %cst_0, %cst_0, %5, %3, %4) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_582480}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %8 = "tf.ConcatV2"(%7#0, %6#0, %cst) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>) -> tensor<2x8xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %9 : tensor<2x8xf32>
  }
  func.func private @__inference_signature_wrapper_644890(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x8xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_64489", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_589610}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5, 6], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x8xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %1 : tensor<2x8xf32>
  }
  func.func private @__inference_standard_lstm_582480(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_58248", tf.api_implements = "lstm_c487154c-2e99-4f78-b886-5cea65be42b3", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_8, %cst_9) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %3:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %arg1, %arg2, %cst, %2, %arg3, %arg4, %arg5) <{body = @while_body_581620, cond = @while_cond_581610, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_8) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<1x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<1x2x4xf32>, tensor<3xi32>) -> tensor<2x1x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @__inference_standard_lstm_586780(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_58678", tf.api_implements = "lstm_a8973c7b-78bb-4650-b489-82bb9b9c0679", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_8, %cst_9) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.ReverseV2"(%1, %cst_6) {device = ""} : (tensor<5x2x3xf32>, tensor<1xi32>) -> tensor<5x2x3xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %4:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %arg1, %arg2, %cst, %3, %arg3, %arg4, %arg5) <{body = @while_body_585920, cond = @while_cond_585910, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.Identity"(%4#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %7 = "tf.TensorListStack"(%4#3, %cst_8) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<1x2x4xf32>
    %8 = "tf.StridedSlice"(%7, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Transpose"(%7, %cst_2) {device = ""} : (tensor<1x2x4xf32>, tensor<3xi32>) -> tensor<2x1x4xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %12 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %9, %11, %5, %6, %12 : tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_581620(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_58162"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %7:4 = "tf.Split"(%cst_1, %6) {device = ""} : (tensor<i32>, tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
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
    %19 = "tf.TensorListSetItem"(%arg3, %cst_0, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_body_585920(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_58592"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %7:4 = "tf.Split"(%cst_1, %6) {device = ""} : (tensor<i32>, tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
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
    %19 = "tf.TensorListSetItem"(%arg3, %cst_0, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_cond_581610(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_58161"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
  func.func private @while_cond_585910(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_58591"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
