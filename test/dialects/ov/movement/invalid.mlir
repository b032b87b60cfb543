// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @concat_et(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'ov.concat' op inputs must have the same element type, got f32, i32}}
  %0 = ov.concat %a, %b axis = 0 : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'ov.concat' op inputs must have the same rank, got shapes [2, 3], [2]}}
  %0 = ov.concat %a, %b axis = 0 : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @concat_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{'ov.concat' op inputs must have rank >= 1, got scalars}}
  %0 = ov.concat %a, %a axis = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ov.concat' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.concat %a, %a axis = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'ov.concat' op inputs must have equal dimensions except on axis 0, got shapes [2, 3], [2, 4]}}
  %0 = ov.concat %a, %b axis = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @concat_none() {
  // expected-error @+1 {{'ov.concat' op expected at least one input}}
  %0 = ov.concat axis = 0 : () -> tensor<4xf32>
  func.return
}

// -----

func.func @split_num(%a: tensor<4xf32>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.split' op num_splits must be >= 1, got 0}}
  %0 = ov.split %a, %ax num_splits = 0 : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @split_axis_type(%a: tensor<4xf32>, %ax: tensor<f32>) {
  // expected-error @+1 {{'ov.split' op axis must have element type i32 or i64, got f32}}
  %0, %1 = ov.split %a, %ax num_splits = 2 : (tensor<4xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @split_axis_rank(%a: tensor<4xf32>, %ax: tensor<1xi64>) {
  // expected-error @+1 {{'ov.split' op axis must be a scalar, got shape [1]}}
  %0, %1 = ov.split %a, %ax num_splits = 2 : (tensor<4xf32>, tensor<1xi64>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @split_scalar(%a: tensor<f32>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.split' op data must have rank >= 1, got a scalar}}
  %0 = ov.split %a, %ax num_splits = 1 : (tensor<f32>, tensor<i64>) -> tensor<f32>
  func.return
}

// -----

func.func @split_div(%a: tensor<5xf32>) {
  %ax = ov.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ov.split' op dimension 5 of axis 0 is not divisible by num_splits = 2}}
  %0, %1 = ov.split %a, %ax num_splits = 2 : (tensor<5xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @split_count(%a: tensor<4xf32>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.split' op expected 2 results (num_splits), got 1}}
  %0 = ov.split %a, %ax num_splits = 2 : (tensor<4xf32>, tensor<i64>) -> tensor<?xf32>
  func.return
}

// -----

// (found by the fuzzer: inference built 0x7FC00000 result types, all of memory)
func.func @split_count_huge(%a: tensor<4xf32>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.split' op expected 2143289344 results (num_splits), got 1}}
  %0 = ov.split %a, %ax num_splits = 0x7FC00000 : (tensor<4xf32>, tensor<i64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @vsplit_axis(%a: tensor<4xf32>, %ax: tensor<2xi64>, %l: tensor<2xi64>) {
  // expected-error @+1 {{'ov.variadic_split' op axis must have one element, got shape [2]}}
  %0, %1 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<2xi64>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  func.return
}

// -----

func.func @vsplit_count(%a: tensor<4xf32>, %ax: tensor<i64>, %l: tensor<3xi64>) {
  // expected-error @+1 {{'ov.variadic_split' op expected 3 results (the length of split_lengths), got 2}}
  %0, %1 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<i64>, tensor<3xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  func.return
}

// -----

func.func @vsplit_lengths_rank(%a: tensor<4xf32>, %ax: tensor<i64>, %l: tensor<i64>) {
  // expected-error @+1 {{'ov.variadic_split' op split_lengths must be 1-D, got shape []}}
  %0 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<i64>, tensor<i64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @vsplit_two_minus(%a: tensor<4xf32>) {
  %ax = ov.constant dense<0> : tensor<i64>
  %l = ov.constant dense<-1> : tensor<2xi64>
  // expected-error @+1 {{'ov.variadic_split' op split_lengths may hold at most one -1, got [-1, -1]}}
  %0, %1 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  func.return
}

// -----

func.func @vsplit_negative(%a: tensor<4xf32>) {
  %ax = ov.constant dense<0> : tensor<i64>
  %l = ov.constant dense<[-2, 6]> : tensor<2xi64>
  // expected-error @+1 {{'ov.variadic_split' op split_lengths must be >= 0 or -1, got [-2, 6]}}
  %0, %1 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  func.return
}

// -----

func.func @vsplit_sum(%a: tensor<4xf32>) {
  %ax = ov.constant dense<0> : tensor<i64>
  %l = ov.constant dense<[1, 2]> : tensor<2xi64>
  // expected-error @+1 {{'ov.variadic_split' op split_lengths [1, 2] must sum to the dimension 4 of the axis, got 3}}
  %0, %1 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  func.return
}

// -----

func.func @vsplit_too_much(%a: tensor<4xf32>) {
  %ax = ov.constant dense<0> : tensor<i64>
  %l = ov.constant dense<[5, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.variadic_split' op split_lengths [5, -1] sum to more than the dimension 4 of the axis}}
  %0, %1 = ov.variadic_split %a, %ax, %l : (tensor<4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  func.return
}

// -----

func.func @transpose_len(%a: tensor<2x3xf32>, %o: tensor<3xi64>) {
  // expected-error @+1 {{'ov.transpose' op order must have 2 elements (the rank of data) or none, got 3}}
  %0 = ov.transpose %a, %o : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @transpose_perm(%a: tensor<2x3xf32>) {
  %o = ov.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.transpose' op order [1, 1] is not a permutation of [0, 1]}}
  %0 = ov.transpose %a, %o : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @transpose_type(%a: tensor<2x3xf32>, %o: tensor<2xf32>) {
  // expected-error @+1 {{'ov.transpose' op order must have element type i32 or i64, got f32}}
  %0 = ov.transpose %a, %o : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @gather_indices(%a: tensor<2x3xf32>, %i: tensor<2xf32>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.gather' op indices must have element type i32 or i64, got f32}}
  %0 = ov.gather %a, %i, %ax : (tensor<2x3xf32>, tensor<2xf32>, tensor<i64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @gather_bd_range(%a: tensor<2x3xf32>, %i: tensor<2xi64>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.gather' op batch_dims 2 is out of range for indices of rank 1, expected [-1, 1]}}
  %0 = ov.gather %a, %i, %ax batch_dims = 2 : (tensor<2x3xf32>, tensor<2xi64>, tensor<i64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @gather_bd_axis(%a: tensor<2x3x4xf32>, %i: tensor<2x3xi64>) {
  %ax = ov.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ov.gather' op batch_dims 1 must be <= axis 0}}
  %0 = ov.gather %a, %i, %ax batch_dims = 1 : (tensor<2x3x4xf32>, tensor<2x3xi64>, tensor<i64>) -> tensor<?x?x?xf32>
  func.return
}

// -----

func.func @gather_batch(%a: tensor<2x3x4xf32>, %i: tensor<3x3xi64>, %ax: tensor<i64>) {
  // expected-error @+1 {{'ov.gather' op data and indices must have equal dimensions up to batch_dims = 1, got shapes [2, 3, 4] and [3, 3]}}
  %0 = ov.gather %a, %i, %ax batch_dims = 1 : (tensor<2x3x4xf32>, tensor<3x3xi64>, tensor<i64>) -> tensor<?x?x?xf32>
  func.return
}

// -----

func.func @gather_axis_range(%a: tensor<2x3xf32>, %i: tensor<2xi64>) {
  %ax = ov.constant dense<2> : tensor<i64>
  // expected-error @+1 {{'ov.gather' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.gather %a, %i, %ax : (tensor<2x3xf32>, tensor<2xi64>, tensor<i64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_mask_value(%a: tensor<2x3xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op begin_mask entries must be 0 or 1, got [2]}}
  %0 = ov.strided_slice %a, %b, %b {begin_mask = array<i64: 2>} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_mask_type(%a: tensor<2x3xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op end_mask must be an array<i64>, got array<i32: 1>}}
  %0 = ov.strided_slice %a, %b, %b {end_mask = array<i32: 1>} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_ellipsis(%a: tensor<2x3xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op ellipsis_mask may have at most one bit set, got [1, 1]}}
  %0 = ov.strided_slice %a, %b, %b {ellipsis_mask = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_lengths(%a: tensor<2x3xf32>, %b: tensor<2xi64>, %e: tensor<1xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op begin, end must have the same length, got 2, 1}}
  %0 = ov.strided_slice %a, %b, %e : (tensor<2x3xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_rank(%a: tensor<2x3xf32>, %b: tensor<2x1xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op begin must be 1-D, got shape [2, 1]}}
  %0 = ov.strided_slice %a, %b, %b : (tensor<2x3xf32>, tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_too_many(%a: tensor<2x3xf32>, %b: tensor<3xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op 3 slicing entries (not new axes or ellipsis) for data of rank 2}}
  %0 = ov.strided_slice %a, %b, %b : (tensor<2x3xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_stride(%a: tensor<2x3xf32>, %b: tensor<2xi64>) {
  %s = ov.constant dense<[1, 0]> : tensor<2xi64>
  // expected-error @+1 {{'ov.strided_slice' op stride must be non-zero, got [1, 0]}}
  %0 = ov.strided_slice %a, %b, %b, %s : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @ss_dyn_len(%a: tensor<2x3xf32>, %b: tensor<?xi64>) {
  // expected-error @+1 {{'ov.strided_slice' op begin/end need a static length when new_axis_mask or shrink_axis_mask is set}}
  %0 = ov.strided_slice %a, %b, %b {new_axis_mask = array<i64: 1>} : (tensor<2x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @d2s_mode(%a: tensor<1x4x2xf32>) {
  // expected-error @+1 {{Expected `blocks_first`, or `depth_first`.}}
  %0 = ov.depth_to_space %a mode = rows_first block_size = 2 : (tensor<1x4x2xf32>) -> tensor<1x2x4xf32>
  func.return
}

// -----

func.func @d2s_bs(%a: tensor<1x4x2xf32>) {
  // expected-error @+1 {{'ov.depth_to_space' op block_size must be >= 1, got 0}}
  %0 = ov.depth_to_space %a mode = blocks_first block_size = 0 : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  func.return
}

// -----

func.func @d2s_rank(%a: tensor<1x4xf32>) {
  // expected-error @+1 {{'ov.depth_to_space' op data must have rank >= 3, got rank 2}}
  %0 = ov.depth_to_space %a mode = blocks_first : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return
}

// -----

func.func @d2s_div(%a: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{'ov.depth_to_space' op channel dimension 6 must be divisible by block_size^2 = 4}}
  %0 = ov.depth_to_space %a mode = blocks_first block_size = 2 : (tensor<1x6x2x2xf32>) -> tensor<1x?x4x4xf32>
  func.return
}

// -----

func.func @b2s_rank(%a: tensor<4xf32>, %b: tensor<1xi64>) {
  // expected-error @+1 {{'ov.batch_to_space' op data must have rank >= 2, got rank 1}}
  %0 = ov.batch_to_space %a, %b, %b, %b : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @b2s_len(%a: tensor<4x2xf32>, %b: tensor<3xi64>) {
  // expected-error @+1 {{'ov.batch_to_space' op block_shape must have 2 elements (the rank of data), got 3}}
  %0 = ov.batch_to_space %a, %b, %b, %b : (tensor<4x2xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @b2s_block(%a: tensor<4x2xf32>) {
  %b = ov.constant dense<[1, 0]> : tensor<2xi64>
  %c = ov.constant dense<0> : tensor<2xi64>
  // expected-error @+1 {{'ov.batch_to_space' op block_shape values must be >= 1, got [1, 0]}}
  %0 = ov.batch_to_space %a, %b, %c, %c : (tensor<4x2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @b2s_block0(%a: tensor<4x2xf32>) {
  %b = ov.constant dense<[2, 1]> : tensor<2xi64>
  %c = ov.constant dense<0> : tensor<2xi64>
  // expected-error @+1 {{'ov.batch_to_space' op block_shape[0] must be 1, got [2, 1]}}
  %0 = ov.batch_to_space %a, %b, %c, %c : (tensor<4x2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @b2s_crop_neg(%a: tensor<4x2xf32>) {
  %b = ov.constant dense<[1, 2]> : tensor<2xi64>
  %c = ov.constant dense<[0, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.batch_to_space' op crops_begin values must be >= 0, got [0, -1]}}
  %0 = ov.batch_to_space %a, %b, %c, %c : (tensor<4x2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @b2s_crop0(%a: tensor<4x2xf32>) {
  %b = ov.constant dense<[1, 2]> : tensor<2xi64>
  %c = ov.constant dense<[1, 0]> : tensor<2xi64>
  %z = ov.constant dense<0> : tensor<2xi64>
  // expected-error @+1 {{'ov.batch_to_space' op crops_end[0] must be 0, got [1, 0]}}
  %0 = ov.batch_to_space %a, %b, %z, %c : (tensor<4x2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @b2s_batch(%a: tensor<3x2xf32>) {
  %b = ov.constant dense<[1, 2]> : tensor<2xi64>
  %c = ov.constant dense<0> : tensor<2xi64>
  // expected-error @+1 {{'ov.batch_to_space' op batch dimension 3 must be divisible by the product of block_shape [1, 2] = 2}}
  %0 = ov.batch_to_space %a, %b, %c, %c : (tensor<3x2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @b2s_crop_big(%a: tensor<4x2xf32>) {
  %b = ov.constant dense<[1, 2]> : tensor<2xi64>
  %c = ov.constant dense<[0, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ov.batch_to_space' op crops_begin[1] + crops_end[1] = 6 exceeds the dimension 4 (data dimension 2 * block 2)}}
  %0 = ov.batch_to_space %a, %b, %c, %c : (tensor<4x2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @s2b_type(%a: tensor<1x4xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'ov.space_to_batch' op block_shape must have element type i32 or i64, got f32}}
  %0 = ov.space_to_batch %a, %b, %b, %b : (tensor<1x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @s2b_div(%a: tensor<1x5xf32>) {
  %b = ov.constant dense<[1, 2]> : tensor<2xi64>
  %c = ov.constant dense<0> : tensor<2xi64>
  // expected-error @+1 {{'ov.space_to_batch' op padded dimension 1 (5 + 0 + 0 = 5) must be divisible by block_shape[1] = 2}}
  %0 = ov.space_to_batch %a, %b, %c, %c : (tensor<1x5xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @s2b_pad0(%a: tensor<1x4xf32>) {
  %b = ov.constant dense<[1, 2]> : tensor<2xi64>
  %c = ov.constant dense<[1, 0]> : tensor<2xi64>
  // expected-error @+1 {{'ov.space_to_batch' op pads_begin[0] must be 0, got [1, 0]}}
  %0 = ov.space_to_batch %a, %b, %c, %c : (tensor<1x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @sc_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{'ov.shuffle_channels' op data must have rank >= 1, got a scalar}}
  %0 = ov.shuffle_channels %a axis = 0 : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @sc_group(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'ov.shuffle_channels' op group must be >= 1, got 0}}
  %0 = ov.shuffle_channels %a group = 0 : (tensor<2x6xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

func.func @sc_axis(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'ov.shuffle_channels' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.shuffle_channels %a axis = 2 : (tensor<2x6xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

func.func @sc_div(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'ov.shuffle_channels' op dimension 6 of axis 1 must be divisible by group = 4}}
  %0 = ov.shuffle_channels %a group = 4 : (tensor<2x6xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

func.func @bc_mode(%a: tensor<3xf32>, %t: tensor<2xi64>) {
  // expected-error @+1 {{Expected `numpy`, `explicit`, or `bidirectional`.}}
  %0 = ov.broadcast %a, %t mode = pdpd : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_target_rank(%a: tensor<3xf32>, %t: tensor<i64>) {
  // expected-error @+1 {{'ov.broadcast' op target_shape must be 1-D, got shape []}}
  %0 = ov.broadcast %a, %t : (tensor<3xf32>, tensor<i64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @bc_no_axes(%a: tensor<3xf32>, %t: tensor<2xi64>) {
  // expected-error @+1 {{'ov.broadcast' op mode = explicit needs the axes_mapping operand}}
  %0 = ov.broadcast %a, %t mode = explicit : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_axes_len(%a: tensor<3xf32>, %t: tensor<2xi64>, %m: tensor<2xi64>) {
  // expected-error @+1 {{'ov.broadcast' op axes_mapping must have 1 elements (the rank of data), got 2}}
  %0 = ov.broadcast %a, %t, %m mode = explicit : (tensor<3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_axes_mode(%a: tensor<3xf32>, %t: tensor<2xi64>, %m: tensor<1xi64>) {
  // expected-error @+1 {{'ov.broadcast' op axes_mapping is only allowed with mode = explicit, got 'numpy'}}
  %0 = ov.broadcast %a, %t, %m : (tensor<3xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_dyn_len(%a: tensor<3xf32>, %t: tensor<?xi64>) {
  // expected-error @+1 {{'ov.broadcast' op target_shape needs a static length or a known value to infer the result rank}}
  %0 = ov.broadcast %a, %t : (tensor<3xf32>, tensor<?xi64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @bc_neg(%a: tensor<3xf32>) {
  %t = ov.constant dense<[-1, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ov.broadcast' op target_shape values must be >= 0, got [-1, 3]}}
  %0 = ov.broadcast %a, %t : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_numpy_rank(%a: tensor<2x3xf32>) {
  %t = ov.constant dense<[3]> : tensor<1xi64>
  // expected-error @+1 {{'ov.broadcast' op target_shape [3] has a smaller rank than data [2, 3]}}
  %0 = ov.broadcast %a, %t : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @bc_numpy_dim(%a: tensor<3xf32>) {
  %t = ov.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{'ov.broadcast' op data shape [3] cannot be broadcast (numpy mode) to [2, 4]: dimension 3 must be 1 or 4}}
  %0 = ov.broadcast %a, %t : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_bidir(%a: tensor<3xf32>) {
  %t = ov.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{'ov.broadcast' op data and target_shape are not broadcast-compatible: shapes [3] and [2, 4]}}
  %0 = ov.broadcast %a, %t mode = bidirectional : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_sorted(%a: tensor<3x4xf32>) {
  %t = ov.constant dense<[4, 3, 4]> : tensor<3xi64>
  %m = ov.constant dense<[2, 1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.broadcast' op axes_mapping [2, 1] must be in increasing order}}
  %0 = ov.broadcast %a, %t, %m mode = explicit : (tensor<3x4xf32>, tensor<3xi64>, tensor<2xi64>) -> tensor<?x?x?xf32>
  func.return
}

// -----

func.func @bc_axes_range(%a: tensor<3xf32>) {
  %t = ov.constant dense<[3, 3]> : tensor<2xi64>
  %m = ov.constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{'ov.broadcast' op axes_mapping[0] = 2 is out of range for target rank 2}}
  %0 = ov.broadcast %a, %t, %m mode = explicit : (tensor<3xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @bc_explicit_dim(%a: tensor<3xf32>) {
  %t = ov.constant dense<[3, 4]> : tensor<2xi64>
  %m = ov.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ov.broadcast' op data dimension 0 (3) must be 1 or equal to target_shape[1] = 4}}
  %0 = ov.broadcast %a, %t, %m mode = explicit : (tensor<3xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @pad_mode(%x: tensor<4xf32>, %p: tensor<1xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{Expected `constant`, `edge`, `reflect`, or `symmetric`.}}
  %0 = ov.pad %x, %p, %p pad_mode = wrap : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @pad_length(%x: tensor<2x4xf32>, %p: tensor<1xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'ov.pad' op pads_begin must have 2 elements (the rank of data), got 1}}
  %0 = ov.pad %x, %p, %p : (tensor<2x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @pad_value_type(%x: tensor<4xf32>, %p: tensor<1xi64>, %v: tensor<f16>) -> tensor<?xf32> {
  // expected-error @+1 {{'ov.pad' op pad_value must have the element type of data (f32), got f16}}
  %0 = ov.pad %x, %p, %p, %v : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<f16>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @pad_reflect_too_far(%x: tensor<3xf32>) -> tensor<9xf32> {
  %p = ov.constant dense<3> : tensor<1xi64>
  // expected-error @+1 {{'ov.pad' op reflect pads on axis 0 must be smaller than its size 3, got pads_begin 3 and pads_end 3}}
  %0 = ov.pad %x, %p, %p pad_mode = reflect : (tensor<3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<9xf32>
  func.return %0 : tensor<9xf32>
}

// -----

func.func @pad_negative_size(%x: tensor<3xf32>) -> tensor<?xf32> {
  %p = ov.constant dense<-2> : tensor<1xi64>
  // expected-error @+1 {{'ov.pad' op axis 0 of size 3 padded by -2 and -2 would have a negative size}}
  %0 = ov.pad %x, %p, %p : (tensor<3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @s2d_bs(%a: tensor<1x4x2xf32>) {
  // expected-error @+1 {{'ov.space_to_depth' op block_size must be >= 1, got 0}}
  %0 = ov.space_to_depth %a mode = blocks_first block_size = 0 : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  func.return
}

// -----

func.func @s2d_rank(%a: tensor<1x4xf32>) {
  // expected-error @+1 {{'ov.space_to_depth' op data must have rank >= 3, got rank 2}}
  %0 = ov.space_to_depth %a mode = blocks_first : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return
}

// -----

func.func @s2d_div(%a: tensor<1x2x4x3xf32>) {
  // expected-error @+1 {{'ov.space_to_depth' op spatial dimensions [4, 3] must be divisible by block_size 2}}
  %0 = ov.space_to_depth %a mode = depth_first block_size = 2 : (tensor<1x2x4x3xf32>) -> tensor<1x8x2x?xf32>
  func.return
}

// -----

func.func @s2d_mode(%a: tensor<1x4x2xf32>) {
  // expected-error @+1 {{Expected `blocks_first`, or `depth_first`.}}
  %0 = ov.space_to_depth %a mode = columns_first block_size = 2 : (tensor<1x4x2xf32>) -> tensor<1x8x1xf32>
  func.return
}

// -----

func.func @gather_elements_rank(%a: tensor<3x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'ov.gather_elements' op indices must have the rank of data (2), got shape [3]}}
  %0 = ov.gather_elements %a, %i axis = 0 : (tensor<3x4xf32>, tensor<3xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @gather_elements_dims(%a: tensor<3x4xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{'ov.gather_elements' op indices must have the dimensions of data except at axis 0, got shapes [3, 4] and [5, 2]}}
  %0 = ov.gather_elements %a, %i axis = 0 : (tensor<3x4xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  func.return
}

// -----

func.func @gather_elements_axis(%a: tensor<3x4xf32>, %i: tensor<3x4xi64>) {
  // expected-error @+1 {{'ov.gather_elements' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.gather_elements %a, %i axis = 2 : (tensor<3x4xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @gather_elements_index_type(%a: tensor<3x4xf32>, %i: tensor<3x4xf32>) {
  // expected-error @+1 {{'ov.gather_elements' op indices must have element type i32 or i64, got f32}}
  %0 = ov.gather_elements %a, %i axis = 0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @gather_elements_scalar(%a: tensor<f32>, %i: tensor<i64>) {
  // expected-error @+1 {{'ov.gather_elements' op data must have rank >= 1, got a scalar}}
  %0 = ov.gather_elements %a, %i axis = 0 : (tensor<f32>, tensor<i64>) -> tensor<f32>
  func.return
}

// -----

func.func @gather_nd_row_length(%a: tensor<3x4xf32>, %i: tensor<5x3xi64>) {
  // expected-error @+1 {{'ov.gather_nd' op the last dimension of indices must be in [1, 2] (the rank of data less batch_dims), got 3}}
  %0 = ov.gather_nd %a, %i : (tensor<3x4xf32>, tensor<5x3xi64>) -> tensor<5xf32>
  func.return
}

// -----

func.func @gather_nd_batch_dims(%a: tensor<3x4xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'ov.gather_nd' op batch_dims must be in [0, 2) (below the ranks of data and indices), got 2}}
  %0 = ov.gather_nd %a, %i batch_dims = 2 : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @gather_nd_batches(%a: tensor<2x4xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'ov.gather_nd' op the first 1 dimension(s) of data and indices must be equal (batch_dims), got shapes [2, 4] and [3, 1]}}
  %0 = ov.gather_nd %a, %i batch_dims = 1 : (tensor<2x4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @gather_nd_scalar_indices(%a: tensor<2x4xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'ov.gather_nd' op indices must be}}
  %0 = ov.gather_nd %a, %i : (tensor<2x4xf32>, tensor<i64>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @reverse_sequence_lengths(%a: tensor<3x4xf32>, %l: tensor<2xi32>) {
  // expected-error @+1 {{'ov.reverse_sequence' op seq_lengths must have 3 elements (the size of data's batch axis 0), got 2}}
  %0 = ov.reverse_sequence %a, %l : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reverse_sequence_axis(%a: tensor<3x4xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{'ov.reverse_sequence' op seq_axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.reverse_sequence %a, %l seq_axis = 2 : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reverse_sequence_bool_lengths(%a: tensor<3x4xf32>, %l: tensor<3xi1>) {
  // expected-error @+1 {{'ov.reverse_sequence' op seq_lengths must have a numeric element type, got i1}}
  %0 = ov.reverse_sequence %a, %l : (tensor<3x4xf32>, tensor<3xi1>) -> tensor<3x4xf32>
  func.return
}
