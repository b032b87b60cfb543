"""
The compiled model cache on disk (OpenVINO's `CACHE_DIR` property): a compiled graph's
object code, the constant arrays it links (`emit.ConstantTable`) and what the runtime needs
to call it, in one file per model, so that compiling the same model again (in this process
or another) skips code generation and LLVM. Where no group of the graph falls back to the
reference interpreter, the header also describes the graph (ports, groups, profiling rows:
`compiler.describe_graph`), and a hit skips the CPU pipeline and the plan as well.

    <CACHE_DIR>/<key>.blob
        magic "LOWPASS-BLOB\\n", u64 header length, a JSON header, then the sections it
        lists at 64-byte aligned offsets: the object files (one per part compiled in
        parallel, `lowering/partition.py`), the LLVM IR text (zlib), the constant arrays
        (raw, C order)

The key (`blob_key`) covers the model (its fingerprint), the compile options, the host CPU's
name and features, and the versions of lowpass, llvmlite and this format: anything else gives
another file. A file that is missing, truncated, of another version or whose object code
does not match its checksum is a miss (compiled again and rewritten), never an error; a
directory that cannot be written only costs the cache (a warning says so).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llvmlite
import numpy as np

from lowpass._version import __version__
from lowpass.lowering.target import host_cpu

FORMAT_VERSION = 3
"""3: the tensors of reference-fallback groups are NCHW (a blob of 2 may hold code that reads
a fallback convolution's output as NHWC: a wrong result replayed from the cache)."""
MAGIC = b"LOWPASS-BLOB\n"
_ALIGN = 64


@dataclass
class CachedGraph:
    """What a blob holds besides its key."""

    objects: list[bytes]
    ir_zipped: bytes
    """The LLVM IR text, zlib-compressed (decompressed only when asked: `ir_text`)."""
    arrays: list[np.ndarray]
    """The constants, `lowpass.const.<n>` being `arrays[n]` (64-byte aligned, read-only)."""
    meta: dict[str, Any]
    """The compiler's own facts: kernel names per group, arena bytes, runtime symbols..."""

    @staticmethod
    def compress(ir_text: str) -> bytes:
        return zlib.compress(ir_text.encode(), 1)

    @staticmethod
    def decompress(ir_zipped: bytes) -> str:
        return zlib.decompress(ir_zipped).decode()

    def ir_text(self) -> str:
        return self.decompress(self.ir_zipped)


def blob_key(model_key: str) -> str:
    """The file name stem for a model compiled as `model_key` says, on this host."""
    cpu = host_cpu()
    text = "\n".join(
        (
            model_key,
            cpu.name,
            ",".join(sorted(cpu.features)),
            f"lowpass {__version__}",
            f"llvmlite {llvmlite.__version__}",
            f"format {FORMAT_VERSION}",
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _path(cache_dir: str | os.PathLike[str], key: str) -> Path:
    return Path(cache_dir) / f"{key}.blob"


def _aligned(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def save(cache_dir: str | os.PathLike[str], key: str, graph: CachedGraph) -> None:
    """Write the blob atomically (a temporary file renamed over it)."""
    payloads: list[bytes | np.ndarray] = [*graph.objects, graph.ir_zipped, *graph.arrays]
    sections: list[list[int]] = []
    offset = 0
    for payload in payloads:
        size = payload.nbytes if isinstance(payload, np.ndarray) else len(payload)
        sections.append([offset, size])
        offset = _aligned(offset + size)
    header = {
        "format": FORMAT_VERSION,
        "key": key,
        "object_sha256": [hashlib.sha256(obj).hexdigest() for obj in graph.objects],
        "ir_sha256": hashlib.sha256(graph.ir_zipped).hexdigest(),
        "sections": sections,
        "arrays": [[a.dtype.str, list(a.shape)] for a in graph.arrays],
        "meta": graph.meta,
    }
    head = json.dumps(header).encode()
    start = _aligned(len(MAGIC) + 8 + len(head))
    directory = Path(cache_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=directory)
        try:
            os.chmod(tmp, 0o644)  # (mkstemp makes it 0600: the cache may be shared)
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + len(head).to_bytes(8, "little") + head)
                for payload, (at, _) in zip(payloads, sections, strict=True):
                    f.seek(start + at)
                    f.write(payload.data if isinstance(payload, np.ndarray) else payload)
                f.truncate(start + offset)
            os.replace(tmp, _path(directory, key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as e:
        warnings.warn(
            f"CACHE_DIR '{cache_dir}': cannot write the compiled model ({e})", stacklevel=2
        )


def load(cache_dir: str | os.PathLike[str], key: str) -> CachedGraph | None:
    """The blob of `key`, or None when there is none or it is not a valid one."""
    path = _path(cache_dir, key)
    try:
        # mapped, not read: the constants are paged in as the code first reads them (the
        # sections are 64-byte aligned in the file, the mapping page-aligned)
        data = np.memmap(path, dtype=np.uint8, mode="r")
    except (OSError, ValueError):  # (ValueError: an empty file cannot be mapped)
        return None
    return _parse(data, key)


def _parse(data: np.ndarray, key: str) -> CachedGraph | None:
    head_at = len(MAGIC) + 8
    if data.size < head_at or bytes(data[: len(MAGIC)]) != MAGIC:
        return None
    head_len = int.from_bytes(bytes(data[len(MAGIC) : head_at]), "little")
    if head_at + head_len > data.size:
        return None
    try:
        header = json.loads(bytes(data[head_at : head_at + head_len]))
        if header.get("format") != FORMAT_VERSION or header.get("key") != key:
            return None
        start = _aligned(head_at + head_len)
        sections = [(start + int(at), int(n)) for at, n in header["sections"]]
        digests = list(header["object_sha256"])
        if any(at + n > data.size for at, n in sections) or len(sections) < len(digests) + 1:
            return None
        objects = [bytes(data[at : at + n]) for at, n in sections[: len(digests)]]
        if [hashlib.sha256(obj).hexdigest() for obj in objects] != digests or not objects:
            return None
        (ir_at, ir_n), *array_sections = sections[len(digests) :]
        ir_zipped = bytes(data[ir_at : ir_at + ir_n])
        if hashlib.sha256(ir_zipped).hexdigest() != header["ir_sha256"]:
            return None
        arrays = []
        for (at, n), (dtype_str, shape) in zip(array_sections, header["arrays"], strict=True):
            dtype = np.dtype(dtype_str)
            array = data[at : at + n].view(dtype).reshape(shape)
            array.flags.writeable = False
            arrays.append(array)
        return CachedGraph(objects, ir_zipped, arrays, dict(header["meta"]))
    except (ValueError, TypeError, KeyError, zlib.error, UnicodeDecodeError):
        return None
