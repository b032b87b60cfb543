// The model's run-time information (OpenVINO's `Model.get_rt_info()`, `<rt_info>` in `<net>`:
// NNCF's quantization parameters, ovc's conversion parameters) is the module's `ov.rt_info`:
// written as OpenVINO writes it (`<key value=...>`, `<info name=...>` where the key is no XML
// name, nested maps as elements), read back the same, kept through passes.
// RUN: opt-tool %s --emit=ov-ir -o %t.xml
// RUN: filecheck %s --input-file=%t.xml --check-prefix=XML
// RUN: opt-tool %t.xml -p lpt | filecheck %s --check-prefix=BACK
// RUN: opt-tool %t.xml --emit=ov-ir -o %t2.xml && cmp %t.xml %t2.xml

// XML:      </edges>
// XML-NEXT: <rt_info>
// XML-NEXT:   <info name="OpenVINO Runtime" value="2026.4.1" />
// XML-NEXT:   <nncf>
// XML-NEXT:     <friendly_names_were_updated value="YES" />
// XML-NEXT:     <quantization>
// XML-NEXT:       <preset value="mixed" />
// XML-NEXT:       <subset_size value="300" />
// XML-NEXT:     </quantization>
// XML-NEXT:   </nncf>
// XML-NEXT:   <info name="a&lt;b" value='x "y"' />
// XML-NEXT: </rt_info>
// XML-NEXT: </net>

// BACK: builtin.module @m attributes {ov.rt_info = {"OpenVINO Runtime" = "2026.4.1", nncf = {friendly_names_were_updated = "YES", quantization = {preset = "mixed", subset_size = "300"}}, "a<b" = "x \22y\22"}}

builtin.module @m attributes {ov.rt_info = {"OpenVINO Runtime" = "2026.4.1", nncf = {friendly_names_were_updated = "YES", quantization = {preset = "mixed", subset_size = "300"}}, "a<b" = "x \22y\22"}} {
  func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}) {
    %y = ov.relu %x {ov.name = "y"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
}
