// Bad OpenVINO IR: one line naming the file, the XML line and the layer; exit code 1.
// RUN: not opt-tool %S/Inputs/entities.xml 2>&1 | filecheck %s --check-prefix=ENTITIES
// RUN: not opt-tool %S/Inputs/bad-layer.xml 2>&1 | filecheck %s --check-prefix=LAYER
// RUN: not opt-tool %S/Inputs/bad-layer.xml --emit=ov-ir -o %t.xml 2>&1 | filecheck %s --check-prefix=LAYER
// RUN: not test -e %t.xml
// RUN: not opt-tool -f xml < %S/../../../examples/qlstm.xml 2>&1 | filecheck %s --check-prefix=STDIN

// No DOCTYPE at all: no entity expansion ("billion laughs"), no external entities.
// ENTITIES: entities.xml:2: error: DOCTYPE declarations are not allowed in an OpenVINO IR file

// LAYER: bad-layer.xml:8: error: layer 'pool1' (id 1, type MaxPool): missing attribute 'kernel', expected comma-separated integers

// An .xml on stdin has no .bin beside it: constants cannot be read.
// STDIN: <stdin>:{{[0-9]+}}: error: layer '{{.*}}' (id {{[0-9]+}}, type Const): the model has constants but no weights were given, expected the .bin's contents (stdin has no .bin: read the .xml from a file)
