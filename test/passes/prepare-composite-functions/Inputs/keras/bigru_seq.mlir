// Keras model 'bigru_seq': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x?x8xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_64820}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5, 6], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x8xf32>
    return %0 : tensor<2x?x8xf32>
  }
  func.func private @__inference__wrapped_model_16280(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x8xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_1628", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_1 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[-0.358360082, -2.198430e-01, -0.389484376, 0.300287843, -1.00510585, 0.276737094, -0.415663838, 0.0531046614, 0.319333047, -0.0148256458, -0.148250982, 0.462089211], [-0.634192645, 0.495374441, -0.336641908, -0.0794550701, 0.225829393, 0.148669481, -0.188207686, 0.235522091, -0.305650175, -0.650223851, 0.473314553, -0.440243274], [0.211674124, 0.431063145, 0.56831187, 0.233833671, -0.0605623201, 0.312743247, -0.579805076, 0.473594159, 0.584523499, -0.40903914, 0.55700022, -0.121593855], [-0.129559904, 0.120964497, 0.361648113, -0.273822188, -0.438933849, -0.539246202, -0.324681431, -0.151742831, -0.142661914, 0.583799779, 0.580503166, 0.616707802]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %0 = "tf.Identity"(%cst_2) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %cst_3 = "tf.Const"() <{value = dense<[[0.381130457, 0.298656136, -0.0919863283, -0.122875378, -0.0795277878, 0.111687712, -0.0259661283, 0.198218718, 0.330078304, -0.0860522463, 0.195941553, -0.0785889551], [-0.253299505, -0.253768712, -0.0638259277, -0.379820198, 0.0998620986, 0.302136213, -0.233012423, -0.0668628215, 0.308711648, 6.944640e-02, 0.0391333252, -0.0523067974]]> : tensor<2x12xf32>}> : () -> tensor<2x12xf32>
    %1 = "tf.Identity"(%cst_3) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[-0.185904875, -0.892297745, -0.444586933, -0.365347445, -0.191983238, 0.284902453, -0.0736899673, -0.694182515, -0.332780063, 0.746025443, -0.0238789916, -0.123476833], [0.376891851, 0.347194582, -0.454657793, 0.277281046, 0.513428867, 0.433220923, 0.678509116, -5.988150e-01, 0.681765676, 0.164975792, 0.125351444, 0.0237566382], [-0.162618339, -0.447562665, -0.0548499674, 0.747756958, -0.261393577, -0.28064394, 0.638814628, -0.536673069, 0.021443814, 0.236133844, 0.267347574, 0.0640606284]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %2 = "tf.Identity"(%cst_4) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %cst_5 = "tf.Const"() <{value = dense<[[0.358672291, -2.08824873E-4, -0.664477169, -0.576886773, 0.12559931, -0.206702799, -0.589177728, -0.749363303, 0.296221435, 0.235335097, 0.0149409026, -0.376556933], [0.0980982333, 0.0748808533, -0.790667235, 0.235174909, -0.339643031, 0.0271924138, 0.351768613, 0.250558347, -0.225243226, 0.913441717, -0.163408816, -0.0166684259], [0.605764687, -0.22542578, 0.571549118, -0.388773471, 0.399217427, -0.0135164782, -0.250140578, -0.136489689, -0.0369979292, 0.436629653, 0.653638541, 0.0941955894], [0.0345181301, 1.03231633, 0.221582025, 0.29249987, 0.736742556, 0.0557435714, -0.548069596, -0.38126716, 0.526078463, 0.0922739803, -0.0123642385, 0.115619749]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %3 = "tf.Identity"(%cst_5) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.363696337, 0.103907876, 0.0099594891, -0.180363432, 0.0736369416, -0.0973060056, -0.0445538349, -0.32450217, -0.0981107875, 0.0319758058, -0.250161231, 0.0147793023], [0.13265878, -0.0613519885, -0.124156833, -0.124024838, 0.188228458, -3.069010e-01, -0.0600902773, -0.0838810205, 0.028799409, -0.013914017, -0.221501231, 0.408017904]]> : tensor<2x12xf32>}> : () -> tensor<2x12xf32>
    %4 = "tf.Identity"(%cst_6) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %cst_7 = "tf.Const"() <{value = dense<[[-0.905004978, -0.868050337, -0.38744235, -0.65107876, 0.110410869, -0.147355661, -0.674766838, 0.728696227, 7.834780e-01, 0.514941812, 0.500351727, 0.136013716], [-0.313242525, 0.419980973, -0.322548628, 0.753152132, 0.545029223, 0.434048206, 0.0742632896, -0.436851978, 0.321434349, 0.0517669506, -0.526656091, 0.416781038], [-0.0494988151, 0.436392099, 0.26772517, -0.174123883, 0.00420156121, 0.425870091, -0.767020344, -0.0815528333, 0.277016819, 0.709722877, -0.372728795, -0.303309858]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %5 = "tf.Identity"(%cst_7) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %6:4 = "tf.PartitionedCall"(%arg0, %cst_1, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_14020}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<3x12xf32>, tensor<4x12xf32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %7 = "tf.ReverseV2"(%6#1, %cst_0) {device = ""} : (tensor<2x?x4xf32>, tensor<1xi32>) -> tensor<2x?x4xf32>
    %8:4 = "tf.PartitionedCall"(%arg0, %cst_1, %5, %3, %4) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_10290}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<3x12xf32>, tensor<4x12xf32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %9 = "tf.ConcatV2"(%8#1, %7, %cst) {device = ""} : (tensor<2x?x4xf32>, tensor<2x?x4xf32>, tensor<i32>) -> tensor<2x?x8xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
    return %10 : tensor<2x?x8xf32>
  }
  func.func private @__inference_signature_wrapper_64820(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x8xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_6482", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_16280}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5, 6], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x8xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
    return %1 : tensor<2x?x8xf32>
  }
  func.func private @__inference_standard_gru_10290(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<3x12>, #tf_type.shape<4x12>, #tf_type.shape<2x12>], tf._original_func_name = "__inference_standard_gru_1029", tf.api_implements = "gru_05e234ff-0677-4d0e-892a-272e49f95612", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
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
    %0:2 = "tf.Unpack"(%arg4) <{axis = 0 : i64}> {device = ""} : (tensor<2x12xf32>) -> (tensor<12xf32>, tensor<12xf32>)
    %1 = "tf.TensorListReserve"(%cst_8, %cst) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %2 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %4:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %1, %arg1, %cst, %3, %arg2, %0#0, %arg3, %0#1) <{body = @while_body_9400, cond = @while_cond_9390, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%4#3, %cst_8) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %5, %11 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @__inference_standard_gru_14020(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<3x12>, #tf_type.shape<4x12>, #tf_type.shape<2x12>], tf._original_func_name = "__inference_standard_gru_1402", tf.api_implements = "gru_5caece81-1d3b-45b8-ab7d-f6869a3bec51", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
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
    %0:2 = "tf.Unpack"(%arg4) <{axis = 0 : i64}> {device = ""} : (tensor<2x12xf32>) -> (tensor<12xf32>, tensor<12xf32>)
    %1 = "tf.TensorListReserve"(%cst_8, %cst) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %2 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %3 = "tf.ReverseV2"(%2, %cst_6) {device = ""} : (tensor<5x2x3xf32>, tensor<1xi32>) -> tensor<5x2x3xf32>
    %4 = "tf.TensorListFromTensor"(%3, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %5:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %1, %arg1, %cst, %4, %arg2, %0#0, %arg3, %0#1) <{body = @while_body_13130, cond = @while_cond_13120, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>)
    %6 = "tf.Identity"(%5#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %7 = "tf.TensorListStack"(%5#3, %cst_8) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %8 = "tf.StridedSlice"(%7, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Transpose"(%7, %cst_2) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %12 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %9, %11, %6, %12 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_13130(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg8: tensor<12xf32> {tf._user_specified_name = "unstack"}, %arg9: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x12>, #tf_type.shape<12>, #tf_type.shape<4x12>, #tf_type.shape<12>], tf._original_func_name = "while_body_1313"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.BiasAdd"(%2, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %4:3 = "tf.Split"(%cst_0, %3) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %5 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %6 = "tf.MatMul"(%5, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %7 = "tf.BiasAdd"(%6, %arg8) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %8:3 = "tf.Split"(%cst_0, %7) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %9 = "tf.AddV2"(%8#0, %4#0) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Sigmoid"(%9) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Mul"(%10, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Sub"(%cst_1, %10) {device = ""} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.AddV2"(%8#1, %4#1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Mul"(%14, %4#2) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.AddV2"(%8#2, %15) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Tanh"(%16) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Mul"(%12, %17) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.AddV2"(%11, %18) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.TensorListSetItem"(%arg3, %arg2, %19) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %23 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<i32>) -> tensor<i32>
    %25 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %24, %25, %1, %22, %20, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>
  }
  func.func private @while_body_9400(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg8: tensor<12xf32> {tf._user_specified_name = "unstack"}, %arg9: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x12>, #tf_type.shape<12>, #tf_type.shape<4x12>, #tf_type.shape<12>], tf._original_func_name = "while_body_940"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.BiasAdd"(%2, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %4:3 = "tf.Split"(%cst_0, %3) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %5 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %6 = "tf.MatMul"(%5, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %7 = "tf.BiasAdd"(%6, %arg8) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %8:3 = "tf.Split"(%cst_0, %7) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %9 = "tf.AddV2"(%8#0, %4#0) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Sigmoid"(%9) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Mul"(%10, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Sub"(%cst_1, %10) {device = ""} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.AddV2"(%8#1, %4#1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Mul"(%14, %4#2) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.AddV2"(%8#2, %15) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Tanh"(%16) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Mul"(%12, %17) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.AddV2"(%11, %18) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.TensorListSetItem"(%arg3, %arg2, %19) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %23 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<i32>) -> tensor<i32>
    %25 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %24, %25, %1, %22, %20, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_13120(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg7: tensor<3x12xf32>, %arg8: tensor<12xf32>, %arg9: tensor<4x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_1312"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
  func.func private @while_cond_9390(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg7: tensor<3x12xf32>, %arg8: tensor<12xf32>, %arg9: tensor<4x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_939"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
