"""
The compiled model cache on disk (OpenVINO's `CACHE_DIR` property): a compiled graph's
object code, the constant arrays it links (`emit.ConstantTable`) and what the runtime needs
to call it, in one file per model, so that compiling the same model again (in this process
or another) skips code generation and LLVM. Where no group of the graph falls back to the
reference interpreter, the header also describes the graph (ports, groups, profiling rows:
`compiler.describe_graph`), and a hit skips the CPU pipeline and the plan as well.

    <CACHE_DIR>/<key>.blob
        magic "LOWPASS-BLOB\\n", the SHA-256 of everything after it (32 bytes), u64 header
        length, a JSON header, then the sections it lists at 64-byte aligned offsets: the
        object files (one per part compiled in parallel, `lowering/partition.py`), the LLVM
        IR text (zlib), the constant arrays (raw, C order)

The key (`blob_key`) covers the model (its fingerprint), the compile options, the host CPU's
name and features, the versions of lowpass, llvmlite and this format, and the compiler's own
code (`compiler_digest`: the bytes of the package's dialects, passes and lowering sources, so
that a lowpass with another kernel, installed over the same version, misses instead of
running the blob of the code it replaced): anything else gives another file. The blob is
trusted only once its digest matches: one SHA-256 over the header and every section, checked
before any of it is used (a lost character in the header, a flipped bit in a constant array:
a miss, not a crash or a wrong result). Only a regular file is read,
opened without blocking (a FIFO, a device or a folder in its place is a miss, not a hang), and
its header is checked for the fields and kinds it must hold; `compiler.compile_module` checks
the described graph against the model (ports, arena size), and `jit.load_objects` each object
file's form (`jit.check_object`) before LLVM reads it. A file that is missing, not a
regular file, truncated, of another version, whose digest does not match or whose header
does not describe this model is a miss (compiled again and rewritten), never an error; a
directory that cannot be written only costs the cache (a warning says so).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import stat
import tempfile
import warnings
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import llvmlite
import numpy as np

from lowpass._version import __version__
from lowpass.lowering.target import host_cpu

FORMAT_VERSION = 3
"""3: one SHA-256 over the whole blob, checked before anything in it is used; and the
tensors of reference-fallback groups are NCHW (a blob of 2 may hold code that reads a
fallback convolution's output as NHWC: a wrong result replayed from the cache)."""
MAGIC = b"LOWPASS-BLOB\n"
_ALIGN = 64
_DIGEST = 32  # SHA-256
_HEAD_AT = len(MAGIC) + _DIGEST + 8
"""Where the JSON header starts (after the magic, the digest and its length)."""


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


_COMPILER_PACKAGES = ("dialects", "passes", "lowering")
"""The subpackages whose code decides what a blob holds (the IR, its passes, the CPU
backend); the frontends, runtime and tools only read or run it."""


@lru_cache(maxsize=4)
def compiler_digest(root: Path | None = None) -> str:
    """SHA-256 of the compiler's Python sources (`_COMPILER_PACKAGES` of the package at
    `root`, by default this one), each file's path within the package and bytes, in path
    order: read once per process (~2 MB, under 10 ms)."""
    root = Path(__file__).resolve().parents[1] if root is None else root
    digest = hashlib.sha256()
    for package in _COMPILER_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def blob_key(model_key: str) -> str:
    """The file name stem for a model compiled as `model_key` says, on this host."""
    cpu = host_cpu()
    text = "\n".join(
        (
            model_key,
            cpu.name,
            ",".join(sorted(cpu.features)),
            f"lowpass {__version__}",
            f"compiler {compiler_digest()}",
            f"llvmlite {llvmlite.__version__}",
            f"format {FORMAT_VERSION}",
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()


def path_of(cache_dir: str | os.PathLike[str], key: str) -> Path:
    """Where the blob of `key` lives in `cache_dir`."""
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
        "objects": len(graph.objects),
        "sections": sections,
        "arrays": [[a.dtype.str, list(a.shape)] for a in graph.arrays],
        "meta": graph.meta,
    }
    head = json.dumps(header).encode()
    start = _aligned(_HEAD_AT + len(head))
    digest = hashlib.sha256(len(head).to_bytes(8, "little") + head)
    digest.update(bytes(start - _HEAD_AT - len(head)))
    end = 0
    for payload, (at, size) in zip(payloads, sections, strict=True):
        digest.update(bytes(at - end))  # (the padding between sections)
        digest.update(payload.data if isinstance(payload, np.ndarray) else payload)
        end = at + size
    digest.update(bytes(offset - end))
    directory = Path(cache_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=directory)
        try:
            os.chmod(tmp, 0o644)  # (mkstemp makes it 0600: the cache may be shared)
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + digest.digest() + len(head).to_bytes(8, "little") + head)
                for payload, (at, _) in zip(payloads, sections, strict=True):
                    f.seek(start + at)
                    f.write(payload.data if isinstance(payload, np.ndarray) else payload)
                f.truncate(start + offset)
            os.replace(tmp, path_of(directory, key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as e:
        warnings.warn(
            f"CACHE_DIR '{cache_dir}': cannot write the compiled model ({e})", stacklevel=2
        )


def load(cache_dir: str | os.PathLike[str], key: str) -> CachedGraph | None:
    """The blob of `key`, or None when there is none or it is not a valid one."""
    data = _map(path_of(cache_dir, key))
    return None if data is None else parse(data, key)


def _map(path: Path) -> np.ndarray | None:
    """The bytes of the regular file `path`, mapped, or None. Opened without blocking and
    checked before it is mapped: a FIFO in its place would block `open` until a writer came;
    a device or a folder is no blob either."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size < _HEAD_AT:
            return None
        # mapped, not read: the constants stay in the page cache, shared between processes
        # (the sections are 64-byte aligned in the file, the mapping page-aligned)
        mapped = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    return np.frombuffer(mapped, dtype=np.uint8)


def digest_of(data: np.ndarray | bytes | bytearray) -> bytes:
    """The SHA-256 a blob holds after its magic: of everything that follows the digest."""
    view = memoryview(data.data if isinstance(data, np.ndarray) else data)
    return hashlib.sha256(view[len(MAGIC) + _DIGEST :]).digest()


def parse(data: np.ndarray, key: str) -> CachedGraph | None:
    """The blob in `data` (its bytes, as uint8) if it is a valid blob of `key`, else None.
    Nothing is used before the digest over the whole blob has matched."""
    if data.size < _HEAD_AT or bytes(data[: len(MAGIC)]) != MAGIC:
        return None
    if bytes(data[len(MAGIC) : len(MAGIC) + _DIGEST]) != digest_of(data):
        return None
    head_len = int.from_bytes(bytes(data[_HEAD_AT - 8 : _HEAD_AT]), "little")
    if _HEAD_AT + head_len > data.size:
        return None
    try:
        header = json.loads(bytes(data[_HEAD_AT : _HEAD_AT + head_len]))
        if not isinstance(header, dict):
            return None
        if header.get("format") != FORMAT_VERSION or header.get("key") != key:
            return None
        start = _aligned(_HEAD_AT + head_len)
        sections = [(start + _count(at), _count(n)) for at, n in header["sections"]]
        n_objects = _count(header["objects"])
        meta = header["meta"]
        if (
            any(at + n > data.size for at, n in sections)
            or not 0 < n_objects < len(sections)
            or not isinstance(meta, dict)
        ):
            return None
        objects = [bytes(data[at : at + n]) for at, n in sections[:n_objects]]
        (ir_at, ir_n), *array_sections = sections[n_objects:]
        ir_zipped = bytes(data[ir_at : ir_at + ir_n])
        arrays = []
        for (at, n), (dtype_str, shape) in zip(array_sections, header["arrays"], strict=True):
            dtype = np.dtype(str(dtype_str))
            dims = [_count(d) for d in shape]
            if dtype.hasobject or int(np.prod(dims, dtype=object)) * dtype.itemsize != n:
                return None
            array = data[at : at + n].view(dtype).reshape(dims)
            array.flags.writeable = False
            arrays.append(array)
        return CachedGraph(objects, ir_zipped, arrays, dict(meta))
    except (ValueError, TypeError, KeyError, AttributeError, zlib.error, UnicodeDecodeError):
        return None


def _count(value: object) -> int:
    """A header's size or offset: a non-negative int (a bool or a float is no count)."""
    if type(value) is not int or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value
