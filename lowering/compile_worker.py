"""
A process that compiles one part of a graph's LLVM module (`lowering/partition.py`) to an
object file, while the compiling process does another part (llvmlite serializes every call
into LLVM behind one lock, so threads would not run LLVM in parallel):

    python compile_worker.py IN.ll OUT.o TRIPLE CPU FEATURES
    python compile_worker.py --serve TRIPLE CPU FEATURES

It writes OUT.o and OUT.o.declared (the symbols the object leaves undefined, one per line).
With `--serve` it compiles one part per line of its standard input (`IN.ll<TAB>OUT.o`) and
answers each with a line, `ok<TAB>OUT.o` or `error<TAB>OUT.o` (the reason on stderr), until
its input ends: the parts of a graph that a compiling process sends while it is still
emitting the rest (`jit.PartStream`), without a process start per part.
It is run by its path and imports no part of lowpass but the sibling `target.py` (which needs
only llvmlite): it starts in a tenth of a second, and wherever the parent found its files.
Errors go to stderr with exit code 1.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def _target_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "_lowpass_compile_worker_target", Path(__file__).with_name("target.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def compile_part(target: ModuleType, source: str, output: str, spec: list[str]) -> bool:
    """Compile the part `source` to `output` (and `output`.declared); False, the reason on
    stderr, where LLVM or a file refused."""
    import llvmlite.binding as llvm

    triple, cpu_name, features = spec
    try:
        mod = llvm.parse_assembly(Path(source).read_text())
        mod.triple = triple
        mod.verify()
        tm = target.target_machine_for(triple, cpu_name, features)
        mod.data_layout = str(tm.target_data)
        target.optimize(mod, tm)
        obj = tm.emit_object(mod)
    except (RuntimeError, OSError, ValueError) as e:  # (LLVM's errors; a file; not UTF-8)
        print(f"compile_worker: {source}: {e}", file=sys.stderr)
        return False
    declared = [g.name for g in [*mod.functions, *mod.global_variables] if g.is_declaration]
    try:
        Path(output + ".declared").write_text("".join(f"{name}\n" for name in declared))
        Path(output).write_bytes(obj)
    except OSError as e:
        print(f"compile_worker: {output}: {e}", file=sys.stderr)
        return False
    return True


def serve(target: ModuleType, spec: list[str]) -> int:
    for line in sys.stdin:
        source, _, output = line.rstrip("\n").partition("\t")
        ok = bool(output) and compile_part(target, source, output, spec)
        sys.stdout.write(f"{'ok' if ok else 'error'}\t{output}\n")
        sys.stdout.flush()
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[0] == "--serve":
        return serve(_target_module(), argv[1:])
    if len(argv) != 5:
        print("usage: compile_worker.py IN.ll OUT.o TRIPLE CPU FEATURES\n"
              "       compile_worker.py --serve TRIPLE CPU FEATURES", file=sys.stderr)
        return 2
    source, output, *spec = argv
    return 0 if compile_part(_target_module(), source, output, spec) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
