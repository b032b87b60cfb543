// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @no_broadcast(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.add' op auto_broadcast = none needs equal shapes, got [2, 3] and [3]}}
  %0 = ov.add %x, %b auto_broadcast = none : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @wrong_result(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.add' op operands are not broadcast-compatible: shapes [2, 3] and [4]}}
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @divide_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.divide' op operands must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.divide %x, %x : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @divide_mixed(%x: tensor<3xi32>, %y: tensor<3xi64>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.divide' op operands must have the same element type, got i32 and i64}}
  %0 = ov.divide %x, %y pythondiv = false : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @divide_bad_broadcast(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{Expected `numpy`, or `none`.}}
  %0 = ov.divide %x, %x auto_broadcast = pdpd : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @exp_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.exp' op input must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.exp %x : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @exp_wrong_result(%x: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ov.exp' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = ov.exp %x : (tensor<3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @name_not_string(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.add' op ov.name must be a string, got 5 : i64}}
  %0 = ov.add %x, %x {ov.name = 5 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @power_mixed(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.power' op operands must have the same element type, got f32 and i32}}
  %0 = ov.power %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @power_boolean(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.power' op operands must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.power %a, %a : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @maximum_shapes(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.maximum' op operands are not broadcast-compatible: shapes [2, 3] and [2]}}
  %0 = ov.maximum %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @sqrt_boolean(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.sqrt' op input must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.sqrt %a : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @round_mode(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{Expected `half_to_even`, or `half_away_from_zero`.}}
  %0 = ov.round %a mode = half_up : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @floor_mod_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.floor_mod' op operands must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.floor_mod %x, %x : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @mod_mixed(%x: tensor<3xi32>, %y: tensor<3xi64>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.mod' op operands must have the same element type, got i32 and i64}}
  %0 = ov.mod %x, %y : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @mod_shapes(%x: tensor<2x3xf32>, %y: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.mod' op operands are not broadcast-compatible: shapes [2, 3] and [2]}}
  %0 = ov.mod %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @sin_integer(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.sin' op input must have element type f32 or f16, got i32}}
  %0 = ov.sin %x : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @sign_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.sign' op input must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.sign %x : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
