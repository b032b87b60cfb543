// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @movement
func.func @movement(%x: tensor<2x6x4xf32>, %y: tensor<2x3x4xf32>, %i: tensor<3xi64>, %s: tensor<i64>) -> tensor<2x9x4xf32> {
  %ax = ov.constant dense<1> : tensor<i64>
  // CHECK: ov.concat %{{.*}}, %{{.*}} axis = -2 {ov.name = "cat"} : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  %0 = ov.concat %x, %y axis = -2 {ov.name = "cat"} : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  // CHECK: %{{.*}}, %{{.*}} = ov.split %{{.*}}, %{{.*}} num_splits = 2 : (tensor<2x6x4xf32>, tensor<i64>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  %1, %2 = ov.split %x, %ax num_splits = 2 : (tensor<2x6x4xf32>, tensor<i64>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  %l = ov.constant dense<[2, -1]> : tensor<2xi64>
  // CHECK: ov.variadic_split %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x6x4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<2x2x4xf32>, tensor<2x4x4xf32>)
  %3, %4 = ov.variadic_split %x, %ax, %l : (tensor<2x6x4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<2x2x4xf32>, tensor<2x4x4xf32>)
  %o = ov.constant dense<[2, 0, 1]> : tensor<3xi64>
  // CHECK: ov.transpose %{{.*}}, %{{.*}} : (tensor<2x6x4xf32>, tensor<3xi64>) -> tensor<4x2x6xf32>
  %5 = ov.transpose %x, %o : (tensor<2x6x4xf32>, tensor<3xi64>) -> tensor<4x2x6xf32>
  // CHECK: ov.gather %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<i64>) -> tensor<2x3x4xf32>
  %6 = ov.gather %x, %i, %ax : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<i64>) -> tensor<2x3x4xf32>
  // CHECK: ov.gather %{{.*}}, %{{.*}}, %{{.*}} batch_dims = 1 : (tensor<2x6x4xf32>, tensor<2x3xi32>, tensor<i64>) -> tensor<2x?x?xf32>
  %ib = ov.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %7 = ov.gather %x, %ib, %s batch_dims = 1 : (tensor<2x6x4xf32>, tensor<2x3xi32>, tensor<i64>) -> tensor<2x?x?xf32>
  %b = ov.constant dense<[0, 1, 0]> : tensor<3xi64>
  %e = ov.constant dense<[0, 5, 0]> : tensor<3xi64>
  // CHECK: ov.strided_slice %{{.*}}, %{{.*}}, %{{.*}} {begin_mask = array<i64: 1, 0, 1>, end_mask = array<i64: 1, 0, 1>} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x4x4xf32>
  %8 = ov.strided_slice %x, %b, %e {begin_mask = array<i64: 1, 0, 1>, end_mask = array<i64: 1, 0, 1>} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x4x4xf32>
  %st = ov.constant dense<[1, -1, 2]> : tensor<3xi64>
  // CHECK: ov.strided_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {begin_mask = array<i64: 0, 1>, end_mask = array<i64: 0, 1>, new_axis_mask = array<i64: 1>, shrink_axis_mask = array<i64: 0, 0, 1>} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<1x2x4xf32>
  %9 = ov.strided_slice %x, %b, %e, %st {begin_mask = array<i64: 0, 1>, end_mask = array<i64: 0, 1>, new_axis_mask = array<i64: 1>, shrink_axis_mask = array<i64: 0, 0, 1>, ellipsis_mask = array<i64>} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<1x2x4xf32>
  %b1 = ov.constant dense<[0, 1]> : tensor<2xi64>
  // CHECK: ov.strided_slice %{{.*}}, %{{.*}}, %{{.*}} {ellipsis_mask = array<i64: 1>} : (tensor<2x6x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x6x1xf32>
  %e1 = ov.constant dense<[0, 2]> : tensor<2xi64>
  %10 = ov.strided_slice %x, %b1, %e1 {ellipsis_mask = array<i64: 1>} : (tensor<2x6x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x6x1xf32>
  // CHECK: ov.depth_to_space %{{.*}} mode = blocks_first block_size = 2 : (tensor<2x6x4xf32>) -> tensor<2x3x8xf32>
  %11 = ov.depth_to_space %x mode = blocks_first block_size = 2 : (tensor<2x6x4xf32>) -> tensor<2x3x8xf32>
  // CHECK: ov.depth_to_space %{{.*}} mode = depth_first : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %12 = ov.depth_to_space %x mode = depth_first : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  // CHECK: ov.shuffle_channels %{{.*}} group = 3 : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %13 = ov.shuffle_channels %x group = 3 : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  // CHECK: ov.shuffle_channels %{{.*}} axis = -1 group = 2 : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %14 = ov.shuffle_channels %x axis = -1 group = 2 : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %ts = ov.constant dense<[2, 1, 4]> : tensor<3xi64>
  // CHECK: ov.broadcast %{{.*}}, %{{.*}} mode = bidirectional : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %15 = ov.broadcast %y, %ts mode = bidirectional : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %am = ov.constant dense<[1]> : tensor<1xi64>
  %ts2 = ov.constant dense<[2, 3, 4]> : tensor<3xi64>
  %v = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  // CHECK: ov.broadcast %{{.*}}, %{{.*}}, %{{.*}} mode = explicit : (tensor<3xf32>, tensor<3xi64>, tensor<1xi64>) -> tensor<2x3x4xf32>
  %16 = ov.broadcast %v, %ts2, %am mode = explicit : (tensor<3xf32>, tensor<3xi64>, tensor<1xi64>) -> tensor<2x3x4xf32>
  // CHECK: ov.broadcast %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %17 = ov.broadcast %v, %i : (tensor<3xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %bs = ov.constant dense<[1, 2, 2]> : tensor<3xi64>
  %z = ov.constant dense<0> : tensor<3xi64>
  %c = ov.constant dense<[0, 1, 0]> : tensor<3xi64>
  // CHECK: ov.space_to_batch %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<8x3x2xf32>
  %18 = ov.space_to_batch %x, %bs, %z, %z : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<8x3x2xf32>
  // CHECK: ov.batch_to_space %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x3x2xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x5x4xf32>
  %19 = ov.batch_to_space %18, %bs, %c, %z : (tensor<8x3x2xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x9x4xf32>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<1x3x4x4xf32>, %d: tensor<?x5xi32>, %pb: tensor<2xi64>) -> (tensor<1x3x6x7xf32>, tensor<1x3x3x4xf32>, tensor<?x?xi32>) {
  %b = ov.constant dense<[0, 0, 1, 2]> : tensor<4xi64>
  %e = ov.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
  %c = ov.constant dense<[0, 0, -1, 0]> : tensor<4xi64>
  %z = ov.constant dense<[0, 0, 0, 0]> : tensor<4xi64>
  %v = ov.constant dense<-1.5> : tensor<f32>
  // the default pad_mode (constant) is not printed
  // CHECK: ov.pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x3x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<f32>) -> tensor<1x3x6x7xf32>
  %0 = ov.pad %x, %b, %e, %v pad_mode = constant : (tensor<1x3x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<f32>) -> tensor<1x3x6x7xf32>
  // CHECK: ov.pad %{{.*}}, %{{.*}}, %{{.*}} pad_mode = reflect : (tensor<1x3x4x4xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x3x6x7xf32>
  %1 = ov.pad %x, %b, %e pad_mode = reflect : (tensor<1x3x4x4xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x3x6x7xf32>
  // Pad-12 crops with negative pads
  // CHECK: ov.pad %{{.*}}, %{{.*}}, %{{.*}} pad_mode = edge : (tensor<1x3x4x4xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x3x3x4xf32>
  %2 = ov.pad %x, %c, %z pad_mode = edge : (tensor<1x3x4x4xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x3x3x4xf32>
  // pads computed at run time: dynamic dimensions
  // CHECK: ov.pad %{{.*}}, %{{.*}}, %{{.*}} pad_mode = symmetric : (tensor<?x5xi32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi32>
  %3 = ov.pad %d, %pb, %pb pad_mode = symmetric : (tensor<?x5xi32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi32>
  func.return %0, %2, %3 : tensor<1x3x6x7xf32>, tensor<1x3x3x4xf32>, tensor<?x?xi32>
}

// CHECK-LABEL: func.func @space_to_depth_gather_elements
func.func @space_to_depth_gather_elements(%x: tensor<2x3x4x6xf32>, %d: tensor<?x3x?xf32>, %i: tensor<2x3x5xi64>, %j: tensor<?x?x4xi32>) -> (tensor<2x12x2x3xf32>, tensor<?x27x?xf32>, tensor<2x3x5xf32>, tensor<?x3x4xf32>) {
  // CHECK: ov.space_to_depth %{{.*}} mode = blocks_first block_size = 2 : (tensor<2x3x4x6xf32>) -> tensor<2x12x2x3xf32>
  %0 = ov.space_to_depth %x mode = blocks_first block_size = 2 : (tensor<2x3x4x6xf32>) -> tensor<2x12x2x3xf32>
  // CHECK: ov.space_to_depth %{{.*}} mode = depth_first block_size = 9 : (tensor<?x3x?xf32>) -> tensor<?x27x?xf32>
  %1 = ov.space_to_depth %d mode = depth_first block_size = 9 : (tensor<?x3x?xf32>) -> tensor<?x27x?xf32>
  // the dimension at axis comes from indices, the others from either
  // CHECK: ov.gather_elements %{{.*}}, %{{.*}} axis = -1 : (tensor<?x3x?xf32>, tensor<2x3x5xi64>) -> tensor<2x3x5xf32>
  %2 = ov.gather_elements %d, %i axis = -1 : (tensor<?x3x?xf32>, tensor<2x3x5xi64>) -> tensor<2x3x5xf32>
  // CHECK: ov.gather_elements %{{.*}}, %{{.*}} axis = 0 {ov.name = "ge"} : (tensor<?x3x?xf32>, tensor<?x?x4xi32>) -> tensor<?x3x4xf32>
  %3 = ov.gather_elements %d, %j axis = 0 {ov.name = "ge"} : (tensor<?x3x?xf32>, tensor<?x?x4xi32>) -> tensor<?x3x4xf32>
  func.return %0, %1, %2, %3 : tensor<2x12x2x3xf32>, tensor<?x27x?xf32>, tensor<2x3x5xf32>, tensor<?x3x4xf32>
}

// CHECK-LABEL: func.func @gather_nd
func.func @gather_nd(%x: tensor<2x4x3xf32>, %i: tensor<2x5x1xi64>, %j: tensor<7x2xi32>, %d: tensor<?x4x3xf32>, %k: tensor<?x?xi64>) -> (tensor<2x5x3xf32>, tensor<7x3xf32>, tensor<2x4xf32>, tensor<*xf32>) {
  // the batch dimension is kept (GatherND-8)
  // CHECK: ov.gather_nd %{{.*}}, %{{.*}} batch_dims = 1 : (tensor<2x4x3xf32>, tensor<2x5x1xi64>) -> tensor<2x5x3xf32>
  %0 = ov.gather_nd %x, %i batch_dims = 1 : (tensor<2x4x3xf32>, tensor<2x5x1xi64>) -> tensor<2x5x3xf32>
  // batch_dims = 0 is the default, not printed
  // CHECK: ov.gather_nd %{{.*}}, %{{.*}} {ov.name = "nd"} : (tensor<2x4x3xf32>, tensor<7x2xi32>) -> tensor<7x3xf32>
  %1 = ov.gather_nd %x, %j batch_dims = 0 {ov.name = "nd"} : (tensor<2x4x3xf32>, tensor<7x2xi32>) -> tensor<7x3xf32>
  // a dynamic batch dimension takes indices'
  %c = ov.constant dense<[[[1], [0], [2], [2]], [[0], [2], [1], [1]]]> : tensor<2x4x1xi64>
  // CHECK: ov.gather_nd %{{.*}}, %{{.*}} batch_dims = 2 : (tensor<?x4x3xf32>, tensor<2x4x1xi64>) -> tensor<2x4xf32>
  %2 = ov.gather_nd %d, %c batch_dims = 2 : (tensor<?x4x3xf32>, tensor<2x4x1xi64>) -> tensor<2x4xf32>
  // rows of unknown length: the result's rank is unknown
  // CHECK: ov.gather_nd %{{.*}}, %{{.*}} : (tensor<?x4x3xf32>, tensor<?x?xi64>) -> tensor<*xf32>
  %3 = ov.gather_nd %d, %k : (tensor<?x4x3xf32>, tensor<?x?xi64>) -> tensor<*xf32>
  func.return %0, %1, %2, %3 : tensor<2x5x3xf32>, tensor<7x3xf32>, tensor<2x4xf32>, tensor<*xf32>
}

// CHECK-LABEL: func.func @strided_slice_of_nothing
func.func @strided_slice_of_nothing(%x: tensor<2x0xf32>) -> (tensor<2x0xf32>, tensor<2x0xf32>) {
  // any slice of an empty dimension is empty, a negative stride too (it was inferred as 1);
  // INT64_MIN, torch.onnx.export's start of `[:-2]`, is a value, not a dynamic dimension
  %b = ov.constant dense<[0, -1]> : tensor<2xi64>
  %e = ov.constant dense<[0, -9223372036854775808]> : tensor<2xi64>
  %s = ov.constant dense<[1, -1]> : tensor<2xi64>
  // CHECK: ov.strided_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {begin_mask = array<i64: 1, 0>, end_mask = array<i64: 1, 0>} : (tensor<2x0xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x0xf32>
  %0 = ov.strided_slice %x, %b, %e, %s {begin_mask = array<i64: 1, 0>, end_mask = array<i64: 1, 0>} : (tensor<2x0xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x0xf32>
  %m = ov.constant dense<[0, -9223372036854775808]> : tensor<2xi64>
  %n = ov.constant dense<[0, -2]> : tensor<2xi64>
  // CHECK: ov.strided_slice %{{.*}}, %{{.*}}, %{{.*}} {begin_mask = array<i64: 1, 0>, end_mask = array<i64: 1, 0>} : (tensor<2x0xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x0xf32>
  %1 = ov.strided_slice %x, %m, %n {begin_mask = array<i64: 1, 0>, end_mask = array<i64: 1, 0>} : (tensor<2x0xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x0xf32>
  func.return %0, %1 : tensor<2x0xf32>, tensor<2x0xf32>
}

// CHECK-LABEL: func.func @reverse_sequence
func.func @reverse_sequence(%x: tensor<2x5x3xf32>, %l: tensor<2xi32>, %d: tensor<?x4xf32>, %f: tensor<4xf32>) -> (tensor<2x5x3xf32>, tensor<?x4xf32>) {
  // the default axes (batch 0, sequence 1) are not printed
  // CHECK: ov.reverse_sequence %{{.*}}, %{{.*}} {ov.name = "rs"} : (tensor<2x5x3xf32>, tensor<2xi32>) -> tensor<2x5x3xf32>
  %0 = ov.reverse_sequence %x, %l batch_axis = 0 seq_axis = 1 {ov.name = "rs"} : (tensor<2x5x3xf32>, tensor<2xi32>) -> tensor<2x5x3xf32>
  // negative axes; float lengths (OpenVINO takes any numeric type); a dynamic sequence axis
  // CHECK: ov.reverse_sequence %{{.*}}, %{{.*}} batch_axis = -1 seq_axis = -2 : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = ov.reverse_sequence %d, %f batch_axis = -1 seq_axis = -2 : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  func.return %0, %1 : tensor<2x5x3xf32>, tensor<?x4xf32>
}
