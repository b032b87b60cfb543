// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @undefined(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.read_value' op variable @"a/b/variable_0" is not defined: expected an 'ov.variable' with this name in the enclosing module}}
  %0 = ov.read_value @"a/b/variable_0" init(%x : tensor<1x4xf32>) : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @not_a_variable(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.assign' op symbol @"not_a_variable" is a 'func.func', not an 'ov.variable'}}
  ov.assign @not_a_variable, %x : tensor<1x4xf32>
  func.return %x : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<1x4xf32>
func.func @init_element_type(%x: tensor<1x4xf16>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.read_value' op init element type f16 differs from the element type f32 of variable @"v"}}
  %0 = ov.read_value @v init(%x : tensor<1x4xf16>) : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<1x4xf32>
func.func @init_shape(%x: tensor<1x3xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.read_value' op variable @"v" of type tensor<1x4xf32> is not compatible with the init type tensor<1x3xf32>: each variable dimension must be dynamic or equal to the init's}}
  %0 = ov.read_value @v init(%x : tensor<1x3xf32>) : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

// A static variable does not relax a dynamic init (OpenVINO's PartialShape::relaxes).
ov.variable @v : tensor<1x4xf32>
func.func @init_dynamic(%x: tensor<?x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.read_value' op variable @"v" of type tensor<1x4xf32> is not compatible with the init type tensor<?x4xf32>}}
  %0 = ov.read_value @v init(%x : tensor<?x4xf32>) : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<?x4xf32>
func.func @result_type(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.read_value' op result type tensor<1x4xf32> must be the type tensor<?x4xf32> of variable @"v"}}
  %0 = ov.read_value @v init(%x : tensor<1x4xf32>) : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<1x4xf32>
func.func @assign_element_type(%x: tensor<1x4xi32>) -> tensor<1x4xf32> {
  %0 = ov.read_value @v : tensor<1x4xf32>
  // expected-error @+1 {{'ov.assign' op value element type i32 differs from the element type f32 of variable @"v"}}
  ov.assign @v, %x : tensor<1x4xi32>
  func.return %0 : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<1x4xf32>
func.func @assign_shape(%x: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = ov.read_value @v : tensor<1x4xf32>
  // expected-error @+1 {{'ov.assign' op variable @"v" of type tensor<1x4xf32> is not compatible with the assigned type tensor<4xf32>: each variable dimension must be dynamic or equal to the value's}}
  ov.assign @v, %x : tensor<4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<1x4xf32>
func.func @two_assigns(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = ov.read_value @v : tensor<1x4xf32>
  // expected-error @+1 {{'ov.assign' op variable @"v" is assigned by 2 'ov.assign' ops: at most one 'ov.assign' per variable}}
  ov.assign @v, %x : tensor<1x4xf32>
  ov.assign @v, %0 : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

ov.variable @"TI/H_t/variable_1" : tensor<1x4xf32>
func.func @no_read(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.assign' op variable @"TI/H_t/variable_1" has no 'ov.read_value': an 'ov.assign' needs a 'ov.read_value' of the same variable (OpenVINO pairs them)}}
  ov.assign @"TI/H_t/variable_1", %x : tensor<1x4xf32>
  func.return %x : tensor<1x4xf32>
}

// -----

ov.variable @v : tensor<1x4xf32>
func.func @write_before_read(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.assign' op the 'ov.read_value' of variable @"v" must come before its 'ov.assign' in program order}}
  ov.assign @v, %x : tensor<1x4xf32>
  %0 = ov.read_value @v : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @variable_in_function() {
  // expected-error @+1 {{'ov.variable' op must be a module-level symbol (in 'builtin.module'), found in 'func.func'}}
  ov.variable @v : tensor<1x4xf32>
  func.return
}

// -----

// The module's symbol table error has no line (the implicit module has no place).
// expected-error @unknown {{'builtin.module' op Redefinition of symbol "v"}}
ov.variable @v : tensor<1x4xf32>
ov.variable @v : tensor<1x4xf32>

// -----

// expected-error @+1 {{'ov.variable' op unsupported element type bf16, expected one of f32, f16, i64, i32, i8, ui8, i1}}
ov.variable @v : tensor<1x4xbf16>

// -----

ov.variable @v : tensor<1x4xf32>
func.func @nested_ref(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.read_value' op variable reference @v::@w must be a flat symbol (@name)}}
  %0 = ov.read_value @v::@w : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}
