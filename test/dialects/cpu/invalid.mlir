// RUN: opt-tool %s --split-input-file --verify-diagnostics
// The verifiers and parsers of the `cpu` attributes (dialects/cpu.py): each bad parameter is
// an error at its op or at the parameter, naming the attribute.

func.func @empty_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#cpu.kernel: empty kind}}
  %r = ov.relu %x {cpu.kernel = #cpu.kernel<0, "">} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @negative_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{Expected integer literal}}
  %r = ov.relu %x {cpu.kernel = #cpu.kernel<-1, "elementwise">} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @unknown_buffer(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown buffer kind 'heap'; expected one of arena, output, none}}
  %r = ov.relu %x {cpu.buffers = [#cpu.buffer<heap 0, 16>]} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{#cpu.arena: 100 bytes is not a multiple of 64}}
func.func @arena_not_aligned(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cpu.arena = #cpu.arena<100>} {
  func.return %x : tensor<4xf32>
}

// -----

func.func @cell_levels(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#cpu.quantized_cell: 1000 levels (expected 2..256)}}
  %q = ov.relu %x {cpu.quantized = #cpu.quantized_cell<x 1000, h 255, weights 63, gemms 2>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %q : tensor<4xf32>
}

// -----

func.func @cell_gemms(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#cpu.quantized_cell: 3 gemms (expected 1, 2)}}
  %q = ov.relu %x {cpu.quantized = #cpu.quantized_cell<x 256, h 255, weights 63, gemms 3>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %q : tensor<4xf32>
}

// -----

func.func @epilogue_step(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown epilogue step 'bias'; expected one of mul, add, sub, rsub, div, rdiv, min, rmin, max, rmax, relu, clamp, hswish, hsigmoid, fq, cast, add_tensor}}
  %e = ov.relu %x {cpu.epilogue = #cpu.epilogue<add, bias>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

func.func @epilogue_two_splits(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a second '|': one splits the kernel's steps from the pass's}}
  %e = ov.relu %x {cpu.epilogue = #cpu.epilogue<mul | add | fq>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

func.func @epilogue_split_at_end(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{identifier expected}}
  %e = ov.relu %x {cpu.epilogue = #cpu.epilogue<mul, add |>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

func.func @int8_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{Expected `vpmaddubsw`, `vpmaddwd`, `vpdpbusd`, or `amx`.}}
  %e = ov.relu %x {cpu.int8 = #cpu<int8 avx512>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

func.func @cell_step(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{Expected `gemms`, or `fused`.}}
  %e = ov.relu %x {cpu.cell_step = #cpu<cell_step one_job>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

func.func @band_of_no_rows(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#cpu.row_bands: 0 rows a band (at least 1)}}
  %r = ov.relu %x {cpu.row_bands = #cpu.row_bands<rows 0, groups 1 to 2>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @band_of_one_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#cpu.row_bands: groups 2 to 2 (two or more, in order)}}
  %r = ov.relu %x {cpu.row_bands = #cpu.row_bands<rows 4, groups 2 to 2>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @band_keyword(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{Expected 'groups'}}
  %r = ov.relu %x {cpu.row_bands = #cpu.row_bands<rows 4, group 1 to 2>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
