// Benchmark mode (OpenVINO's benchmark_app): -niter / -t measure instead of printing outputs;
// compile properties go to Core.compile_model; bad flags are one line and exit code 1.
// RUN: lowpass-run %s -niter 3 | filecheck %s
// RUN: lowpass-run %s -niter 2 -t 0.05 -nstreams 2 -nthreads 2 -hint throughput -c ENABLE_CPU_PINNING=false --report %t.json | filecheck %s --check-prefix=STREAMS
// RUN: python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(d['device'], d['infer_requests'], d['iterations'] >= 2, sorted(d['latency_ms']))" %t.json | filecheck %s --check-prefix=REPORT
// RUN: not lowpass-run %s -t abc 2>&1 | filecheck %s --check-prefix=BAD-T
// RUN: not lowpass-run %s -t 0 2>&1 | filecheck %s --check-prefix=ZERO-T
// RUN: not lowpass-run %s -niter 3 -hint fast 2>&1 | filecheck %s --check-prefix=HINT
// RUN: not lowpass-run %s -c NUM_STREAMS 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not lowpass-run %s -c FOO=1 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not lowpass-run %s --report %t.json 2>&1 | filecheck %s --check-prefix=REPORT-ONLY
// RUN: not lowpass-run %s -d REFERENCE -nstreams 2 2>&1 | filecheck %s --check-prefix=REF
// benchmark_app's spellings: -m MODEL, -d AUTO (the CPU device); its flags that lowpass-run
// does not take are named as written
// RUN: lowpass-run -m %s -d AUTO -niter 2 -hint latency | filecheck %s --check-prefix=DASH-M
// RUN: not lowpass-run %s -pcseq -niter 2 2>&1 | filecheck %s --check-prefix=UNTAKEN
// -exec_graph_path: the compiled model's runtime model, as OpenVINO writes an execution graph
// RUN: lowpass-run %s -niter 2 -exec_graph_path %t.xml 2>&1 | filecheck %s --check-prefix=EXEC-WARN
// RUN: filecheck %s --check-prefix=EXEC-GRAPH < %t.xml
// -api, -nireq, -b, -layout, -inference_only
// RUN: lowpass-run %s -niter 3 -api async -nireq 2 -hint latency -inference_only false | filecheck %s --check-prefix=NIREQ
// RUN: lowpass-run %s -niter 2 -api sync -nireq 2 -hint latency -b 4 -layout x[NC] | filecheck %s --check-prefix=BATCH
// RUN: not lowpass-run %s -niter 2 -b 4 -layout x[NCHW] 2>&1 | filecheck %s --check-prefix=LAYOUT

// DASH-M: [ INFO ] Device: CPU
// DASH-M: [ INFO ] Count:            2 iterations
// UNTAKEN: lowpass-run: error: unrecognized arguments: -pcseq (lowpass-run takes benchmark_app's
// EXEC-WARN: [ WARNING ] Turn on performance counters for CPU device due to execution graph dumping.
// EXEC-GRAPH:      <layer id="0" name="x" type="Input">
// EXEC-GRAPH-NEXT:   <data shape="1,64" element_type="f32" execOrder="0" execTimeMcs="not_executed"
// EXEC-GRAPH:      <layer id="1" name="w" type="Const">
// EXEC-GRAPH:      <layer id="2" name="fc" type="MatMul">
// EXEC-GRAPH-NEXT:   <data execOrder="2" execTimeMcs="{{[0-9]+}}" originalLayersNames="fc,relu" outputLayouts="ab" outputPrecisions="f32" primitiveType="jit_{{[a-z0-9_]+}}_FP32" runtimePrecision="f32" />
// EXEC-GRAPH:      <layer id="3" name="sig" type="Sigmoid">
// EXEC-GRAPH:      <layer id="4" name="out" type="Output">
// EXEC-GRAPH:      <edge from-layer="0" from-port="0" to-layer="2" to-port="0" />
// EXEC-GRAPH-NEXT: <edge from-layer="1" from-port="0" to-layer="2" to-port="1" />
// EXEC-GRAPH-NEXT: <edge from-layer="2" from-port="2" to-layer="3" to-port="0" />
// EXEC-GRAPH-NEXT: <edge from-layer="3" from-port="1" to-layer="4" to-port="0" />
// NIREQ:      [ WARNING ] Number of iterations was aligned by request number from 3 to 4 using number of requests 2
// NIREQ-NEXT: [ INFO ] Start inference asynchronously, 2 inference requests using 1 streams for CPU, limits: 4 iterations
// NIREQ-NEXT: [ INFO ] Benchmarking in full mode (inputs filling are included in measurement loop).
// NIREQ:      [ INFO ] Count:            4 iterations
// BATCH:      [ INFO ] Model batch size: 4
// BATCH-NEXT: [ INFO ] Reshaping model: 'x': [4,64]
// BATCH:      [ WARNING ] -nireq 2 is not used with -api sync: one request runs.
// BATCH:      [ INFO ] Start inference synchronously, limits: 2 iterations
// BATCH-NEXT: [ INFO ] Benchmarking in inference only mode (inputs filling are not included in measurement loop).
// LAYOUT:     lowpass-run: error: -layout x[NCHW]: input 'x' has 2 dimensions, the layout 4

// CHECK:      [ INFO ] Read model took {{[0-9]+\.[0-9][0-9]}} ms
// CHECK-NEXT: [ INFO ] Compile model took {{[0-9]+\.[0-9][0-9]}} ms
// CHECK:      [ INFO ] Device: CPU
// CHECK:      [ INFO ] Start inference synchronously, limits: 3 iterations
// CHECK-NEXT: [ INFO ] Benchmarking in inference only mode (inputs filling are not included in measurement loop).
// CHECK-NEXT: [ INFO ] First inference took {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ] Execution Devices:['CPU']
// CHECK-NEXT: [ INFO ] Count:            3 iterations
// CHECK-NEXT: [ INFO ] Duration:         {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ] Latency:
// CHECK-NEXT: [ INFO ]    Median:        {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ]    90 percentile: {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ]    99 percentile: {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ]    Average:       {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ]    Min:           {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ]    Max:           {{[0-9.]+}} ms
// CHECK-NEXT: [ INFO ] Throughput:   {{[0-9.]+}} FPS
// CHECK-NOT:  out:

// STREAMS:      [ INFO ] Device: CPU
// STREAMS-NEXT: [ INFO ]   ENABLE_CPU_PINNING: False
// (the streams the device made: as many as the cores this process may use, at most 2; one
// stream runs synchronously)
// STREAMS-NEXT: [ INFO ]   INFERENCE_NUM_THREADS: [[THREADS:[12]]]
// STREAMS-NEXT: [ INFO ]   NUM_STREAMS: [[THREADS]]
// STREAMS-NEXT: [ INFO ]   PERFORMANCE_HINT: THROUGHPUT
// STREAMS-NEXT: [ INFO ] Start inference {{(asynchronously, 2 inference requests using 2 streams for CPU|synchronously)}}, limits: 2 iterations, 50 ms duration
// REPORT: CPU {{[12]}} True ['average', 'max', 'median', 'min', 'p90', 'p99']

// BAD-T:       lowpass-run: error: argument -t/--time: expected a duration in seconds > 0, got 'abc' (see lowpass-run --help)
// ZERO-T:      lowpass-run: error: argument -t/--time: expected a duration in seconds > 0, got '0'
// HINT:        lowpass-run: error: argument -hint/--perf_hint: expected latency, throughput (tput), cumulative_throughput (ctput) or none, got 'fast'
// SYNTAX:      lowpass-run: error: argument -c: expected KEY=VALUE, a compile property such as INFERENCE_NUM_THREADS=2, got 'NUM_STREAMS'
// UNKNOWN:     lowpass-run: error: Unsupported property FOO by CPU plugin: supported properties are INFERENCE_NUM_THREADS,
// REPORT-ONLY: lowpass-run: error: --report needs benchmark mode: give -t SECONDS or -niter N
// REF:         lowpass-run: error: -nstreams applies to the CPU device (--device CPU)

func.func @main(%x: tensor<1x64xf32> {ov.name = "x"}) -> (tensor<1x16xf32> {ov.name = "out"}) {
  %w = ov.constant dense<0.5> : tensor<64x16xf32> {ov.name = "w"}
  %m = ov.mat_mul %x, %w {ov.name = "fc"} : (tensor<1x64xf32>, tensor<64x16xf32>) -> tensor<1x16xf32>
  %r = ov.relu %m {ov.name = "relu"} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = ov.sigmoid %r {ov.name = "sig"} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %s : tensor<1x16xf32>
}
