// A splat constant of 50 million floats is read as its value's bytes repeated and printed as
// its one value, and round-trips (xDSL's parser and printer expand every element: 9-16 s
// and 4 GB for this 200 MB tensor).
// RUN: opt-tool %s | filecheck %s
// RUN: opt-tool %s | opt-tool | filecheck %s

// CHECK: %big = ov.constant dense<1.500000e+00> : tensor<500x100000xf32> {ov.name = "big"}
// CHECK: %codes = ov.constant dense<-7> : tensor<8192xi8>
func.func @main() -> (tensor<500x100000xf32>, tensor<8192xi8>) {
  %big = ov.constant dense<1.5> : tensor<500x100000xf32> {ov.name = "big"}
  %codes = ov.constant dense<-7> : tensor<8192xi8>
  func.return %big, %codes : tensor<500x100000xf32>, tensor<8192xi8>
}
