"""
The CPU device's native copy-in/copy-out call (issue 37): one llvmlite-compiled function
checks a request's inputs, copies them into its buffers, runs the graph's entry point and
copies its outputs into fresh arrays, so that `infer()` on a small stateful step makes one
ctypes call and no per-input numpy work in Python.

It reads the inputs from the runtime's list of inputs (a Python `list` of `np.ndarray`) through
the C layouts that CPython and numpy publish: `PyListObject.ob_item`, and the fields of
numpy's `PyArrayObject_fields` (`data`, `nd`, `dimensions`, `descr`, `flags`) and
`PyArray_Descr` (`byteorder`, `type_num`): numpy's documented C structures, these fields at
the same offsets in numpy 1.x and 2.x. `native_infer_call` checks those
offsets on sample objects once per process and gives None (the runtime then keeps its Python
path) on any interpreter where they differ (PyPy, a free-threaded build, another layout).

The function is called with the GIL held (`ctypes.PYFUNCTYPE`): it checks each input (an
exact `np.ndarray`, C-contiguous, of the buffer's shape and dtype: numpy's object of that
builtin type, or another dtype object of the same type number that is not byte-swapped, as
unpickled arrays carry) and reads the data
pointers of the inputs and of the fresh output arrays, then releases the GIL
(`PyEval_SaveThread`, as numpy's and ctypes' own calls do) for the copies and the graph, and
takes it back before it returns. An input that fails a check returns -1 before anything is
copied: the runtime then takes its Python path (conversions, non-contiguous arrays, other
sequences, and the one-line errors).

The block of one request (64-bit slots): 0 the entry point, 1-6 its six arguments, 7
`PyEval_SaveThread`, 8 `PyEval_RestoreThread`, 9 the runtime's list of inputs, 10 the list of
fresh output arrays (0: outputs shared, no copy), 11 `np.ndarray`, 12 the number of inputs,
13 their table (per input: dtype object, rank, shape array, bytes, buffer, the data pointer
found, dtype number), 14 the number of outputs, 15 their table (per output: buffer, bytes,
the destination found, and the form its array must still have: dtype object, rank, shape
array), 16 the `run` of the thread pool that copies large inputs and outputs (0: none,
every copy on the calling thread), 17 that pool's state.
"""

from __future__ import annotations

import ctypes
import sys
import sysconfig
import threading
from collections.abc import Callable, Sequence
from sys import getrefcount
from typing import Any

import numpy as np

_IR = """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; whether a numpy array (its PyArrayObject) is C-contiguous of rank %want.nd and shape
; %want.dims: the inputs' check and the reused outputs' (inlined)
define internal i1 @has_shape(ptr %obj, i64 %want.nd, ptr %want.dims) alwaysinline {
entry:
  %flags.p = getelementptr i8, ptr %obj, i64 64
  %flags = load i32, ptr %flags.p
  %contig.bit = and i32 %flags, 1
  %contig = icmp ne i32 %contig.bit, 0
  %nd.p = getelementptr i8, ptr %obj, i64 24
  %nd32 = load i32, ptr %nd.p
  %nd = sext i32 %nd32 to i64
  %same.nd = icmp eq i64 %nd, %want.nd
  %ok = and i1 %contig, %same.nd
  br i1 %ok, label %dims.pre, label %no

dims.pre:
  %dims.p = getelementptr i8, ptr %obj, i64 32
  %dims = load ptr, ptr %dims.p
  br label %dims.head

dims.head:
  %j = phi i64 [0, %dims.pre], [%j.next, %dims.body]
  %dims.done = icmp eq i64 %j, %nd
  br i1 %dims.done, label %yes, label %dims.body

dims.body:
  %d.p = getelementptr i64, ptr %dims, i64 %j
  %d = load i64, ptr %d.p
  %w.p = getelementptr i64, ptr %want.dims, i64 %j
  %w = load i64, ptr %w.p
  %j.next = add i64 %j, 1
  %same.d = icmp eq i64 %d, %w
  br i1 %same.d, label %dims.head, label %no

yes:
  ret i1 true

no:
  ret i1 false
}

; chunk %i of COPY_CHUNKS of a parallel copy (`@copy`): ctx = {dst, src, bytes}, the chunks'
; bounds on 64-byte lines (the last ends at the copy's end)
define internal void @copy_chunk(ptr %ctx, i64 %i) {
entry:
  %dst = load ptr, ptr %ctx
  %src.p = getelementptr ptr, ptr %ctx, i64 1
  %src = load ptr, ptr %src.p
  %n.p = getelementptr i64, ptr %ctx, i64 2
  %n = load i64, ptr %n.p
  %lo.n = mul i64 %n, %i
  %lo.q = udiv i64 %lo.n, COPY_CHUNKS
  %lo = and i64 %lo.q, -64
  %i1 = add i64 %i, 1
  %last = icmp eq i64 %i1, COPY_CHUNKS
  %hi.n = mul i64 %n, %i1
  %hi.q = udiv i64 %hi.n, COPY_CHUNKS
  %hi.line = and i64 %hi.q, -64
  %hi = select i1 %last, i64 %n, i64 %hi.line
  %len = sub i64 %hi, %lo
  %d = getelementptr i8, ptr %dst, i64 %lo
  %s = getelementptr i8, ptr %src, i64 %lo
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %len, i1 false)
  ret void
}

; an input's or output's copy: on the pool of block slot 16 (its state in 17) where there is
; one and the copy has PARALLEL_COPY_MIN_BYTES or more, else on this thread
define internal void @copy(ptr %block, ptr %dst, ptr %src, i64 %n) {
entry:
  %ctx = alloca [3 x i64], align 8
  %p16 = getelementptr i64, ptr %block, i64 16
  %pool.run = load ptr, ptr %p16
  %has.pool = icmp ne ptr %pool.run, null
  %large = icmp uge i64 %n, PARALLEL_COPY_MIN_BYTES
  %parallel = and i1 %has.pool, %large
  br i1 %parallel, label %chunks, label %serial

serial:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  ret void

chunks:
  store ptr %dst, ptr %ctx
  %ctx.src = getelementptr ptr, ptr %ctx, i64 1
  store ptr %src, ptr %ctx.src
  %ctx.n = getelementptr i64, ptr %ctx, i64 2
  store i64 %n, ptr %ctx.n
  %p17 = getelementptr i64, ptr %block, i64 17
  %pool.state = load ptr, ptr %p17
  call void %pool.run(ptr %pool.state, ptr @copy_chunk, ptr %ctx, i64 COPY_CHUNKS)
  ret void
}

define i32 @lowpass_infer(ptr %block) {
entry:
  %p9 = getelementptr i64, ptr %block, i64 9
  %list = load ptr, ptr %p9
  %items.p = getelementptr i8, ptr %list, i64 24
  %items = load ptr, ptr %items.p
  %p11 = getelementptr i64, ptr %block, i64 11
  %ndtype = load ptr, ptr %p11
  %p12 = getelementptr i64, ptr %block, i64 12
  %nin = load i64, ptr %p12
  %p13 = getelementptr i64, ptr %block, i64 13
  %intab = load ptr, ptr %p13
  br label %in.head

in.head:
  %i = phi i64 [0, %entry], [%i.next, %in.keep]
  %in.done = icmp eq i64 %i, %nin
  br i1 %in.done, label %out.start, label %in.body

in.body:
  %obj.p = getelementptr ptr, ptr %items, i64 %i
  %obj = load ptr, ptr %obj.p
  %type.p = getelementptr i8, ptr %obj, i64 8
  %type = load ptr, ptr %type.p
  %is.nd = icmp eq ptr %type, %ndtype
  br i1 %is.nd, label %in.fields, label %fail

in.fields:
  %e = mul i64 %i, 7
  %ent = getelementptr i64, ptr %intab, i64 %e
  %descr.p = getelementptr i8, ptr %obj, i64 56
  %descr = load ptr, ptr %descr.p
  %want.descr = load ptr, ptr %ent
  %same.object = icmp eq ptr %descr, %want.descr
  %num.p = getelementptr i8, ptr %descr, i64 28
  %num32 = load i32, ptr %num.p
  %num = sext i32 %num32 to i64
  %ent6 = getelementptr i64, ptr %ent, i64 6
  %want.num = load i64, ptr %ent6
  %same.num = icmp eq i64 %num, %want.num
  %order.p = getelementptr i8, ptr %descr, i64 26
  %order = load i8, ptr %order.p
  %swapped = icmp eq i8 %order, 62
  %not.swapped = xor i1 %swapped, true
  %equal.type = and i1 %same.num, %not.swapped
  %same.descr = or i1 %same.object, %equal.type
  %ent1 = getelementptr i64, ptr %ent, i64 1
  %want.nd = load i64, ptr %ent1
  %ent2 = getelementptr i64, ptr %ent, i64 2
  %want.dims = load ptr, ptr %ent2
  %shaped = call i1 @has_shape(ptr %obj, i64 %want.nd, ptr %want.dims)
  %ok = and i1 %same.descr, %shaped
  br i1 %ok, label %in.keep, label %fail

in.keep:
  %data.p = getelementptr i8, ptr %obj, i64 16
  %data = load ptr, ptr %data.p
  %ent5 = getelementptr i64, ptr %ent, i64 5
  store ptr %data, ptr %ent5
  %i.next = add i64 %i, 1
  br label %in.head

out.start:
  %p10 = getelementptr i64, ptr %block, i64 10
  %olist = load ptr, ptr %p10
  %p14 = getelementptr i64, ptr %block, i64 14
  %nout = load i64, ptr %p14
  %p15 = getelementptr i64, ptr %block, i64 15
  %outtab = load ptr, ptr %p15
  %share = icmp eq ptr %olist, null
  br i1 %share, label %run, label %out.pre

out.pre:
  %oitems.p = getelementptr i8, ptr %olist, i64 24
  %oitems = load ptr, ptr %oitems.p
  br label %out.head

out.head:
  %k = phi i64 [0, %out.pre], [%k.next, %out.keep]
  %out.done = icmp eq i64 %k, %nout
  br i1 %out.done, label %run, label %out.body

out.body:
  %oobj.p = getelementptr ptr, ptr %oitems, i64 %k
  %oobj = load ptr, ptr %oobj.p
  %oe = mul i64 %k, 6
  %oent = getelementptr i64, ptr %outtab, i64 %oe
  %odescr.p = getelementptr i8, ptr %oobj, i64 56
  %odescr = load ptr, ptr %odescr.p
  %oent3 = getelementptr i64, ptr %oent, i64 3
  %owant.descr = load ptr, ptr %oent3
  %osame.descr = icmp eq ptr %odescr, %owant.descr
  %oent4 = getelementptr i64, ptr %oent, i64 4
  %owant.nd = load i64, ptr %oent4
  %oent5 = getelementptr i64, ptr %oent, i64 5
  %owant.dims = load ptr, ptr %oent5
  %oshaped = call i1 @has_shape(ptr %oobj, i64 %owant.nd, ptr %owant.dims)
  %ook = and i1 %osame.descr, %oshaped
  br i1 %ook, label %out.keep, label %changed

out.keep:
  %odata.p = getelementptr i8, ptr %oobj, i64 16
  %odata = load ptr, ptr %odata.p
  %oent2 = getelementptr i64, ptr %oent, i64 2
  store ptr %odata, ptr %oent2
  %k.next = add i64 %k, 1
  br label %out.head

run:
  %p7 = getelementptr i64, ptr %block, i64 7
  %save = load ptr, ptr %p7
  %ts = call ptr %save()
  br label %cp.head

cp.head:
  %c = phi i64 [0, %run], [%c.next, %cp.body]
  %cp.done = icmp eq i64 %c, %nin
  br i1 %cp.done, label %call, label %cp.body

cp.body:
  %ce = mul i64 %c, 7
  %cent = getelementptr i64, ptr %intab, i64 %ce
  %cent3 = getelementptr i64, ptr %cent, i64 3
  %n = load i64, ptr %cent3
  %cent4 = getelementptr i64, ptr %cent, i64 4
  %dst = load ptr, ptr %cent4
  %cent5 = getelementptr i64, ptr %cent, i64 5
  %src = load ptr, ptr %cent5
  call void @copy(ptr %block, ptr %dst, ptr %src, i64 %n)
  %c.next = add i64 %c, 1
  br label %cp.head

call:
  %f = load ptr, ptr %block
  %a1.p = getelementptr i64, ptr %block, i64 1
  %a1 = load ptr, ptr %a1.p
  %a2.p = getelementptr i64, ptr %block, i64 2
  %a2 = load ptr, ptr %a2.p
  %a3.p = getelementptr i64, ptr %block, i64 3
  %a3 = load ptr, ptr %a3.p
  %a4.p = getelementptr i64, ptr %block, i64 4
  %a4 = load ptr, ptr %a4.p
  %a5.p = getelementptr i64, ptr %block, i64 5
  %a5 = load ptr, ptr %a5.p
  %a6.p = getelementptr i64, ptr %block, i64 6
  %a6 = load ptr, ptr %a6.p
  %r = call i32 %f(ptr %a1, ptr %a2, ptr %a3, ptr %a4, ptr %a5, ptr %a6)
  br i1 %share, label %done, label %oc.head

oc.head:
  %m = phi i64 [0, %call], [%m.next, %oc.body]
  %oc.done = icmp eq i64 %m, %nout
  br i1 %oc.done, label %done, label %oc.body

oc.body:
  %me = mul i64 %m, 6
  %ment = getelementptr i64, ptr %outtab, i64 %me
  %osrc = load ptr, ptr %ment
  %ment1 = getelementptr i64, ptr %ment, i64 1
  %on = load i64, ptr %ment1
  %ment2 = getelementptr i64, ptr %ment, i64 2
  %odst = load ptr, ptr %ment2
  call void @copy(ptr %block, ptr %odst, ptr %osrc, i64 %on)
  %m.next = add i64 %m, 1
  br label %oc.head

done:
  %p8 = getelementptr i64, ptr %block, i64 8
  %restore = load ptr, ptr %p8
  call void %restore(ptr %ts)
  ret i32 %r

fail:
  ret i32 -1

changed:
  ret i32 -2
}
"""

PARALLEL_COPY_MIN_BYTES = 256 * 1024
"""The bytes of an input or output from which a request of several threads copies it on its
thread pool (`NativeInfer`'s `pool`), in `COPY_CHUNKS` chunks: the caller's share the first
half, the rows that the caller's chunks of the first element-wise pass read (a resnet50's
input FakeQuantize: copied on the caller alone, the worker read its half from the caller's
L2)."""
COPY_CHUNKS = 4

NOT_CHECKED = -1
"""The native call's status when an input needs the Python path (nothing was copied)."""
OUTPUTS_CHANGED = -2
"""The native call's status when an array of the outputs list is no longer of its output's
form (dtype object, C-contiguous, rank, shape: a reused array whose `.shape` a caller set
before dropping it); nothing was copied, fresh arrays are taken."""

_CALL: list[Any] = []  # [library, call] once compiled; [None] where the layout differs
_LOCK = threading.Lock()

# Offsets of the CPython/numpy fields the native function reads (64-bit CPython with the GIL).
_TYPE, _DATA, _ND, _DIMS, _DESCR, _FLAGS = 8, 16, 24, 32, 56, 64
_LIST_ITEMS = 24
_BYTEORDER, _TYPE_NUM = 26, 28  # of a PyArray_Descr
_C_CONTIGUOUS = 1  # NPY_ARRAY_C_CONTIGUOUS


def _word(address: int, offset: int) -> int:
    return ctypes.c_int64.from_address(address + offset).value


def _int(address: int, offset: int) -> int:
    return ctypes.c_int32.from_address(address + offset).value


def layout_matches() -> bool:
    """Whether this interpreter's lists and numpy arrays have the field offsets that the
    native function reads (checked on sample objects)."""
    if (
        sys.implementation.name != "cpython"
        or ctypes.sizeof(ctypes.c_void_p) != 8
        or sysconfig.get_config_var("Py_GIL_DISABLED")
        or sys.byteorder != "little"
    ):
        return False
    for dtype in (np.dtype(np.float32), np.dtype(">i2")):
        d = id(dtype)
        order = ctypes.c_char.from_address(d + _BYTEORDER).value
        if _int(d, _TYPE_NUM) != dtype.num or order != dtype.byteorder.encode():
            return False
    contiguous = np.zeros((2, 3), np.float32)
    strided = contiguous[:, ::2]
    for array, shape, flag in ((contiguous, (2, 3), _C_CONTIGUOUS), (strided, (2, 2), 0)):
        a = id(array)
        dims = _word(a, _DIMS)
        if (
            _word(a, _TYPE) != id(np.ndarray)
            or _word(a, _DATA) != array.ctypes.data
            or _int(a, _ND) != 2
            or [_word(dims, 8 * i) for i in range(2)] != list(shape)
            or _word(a, _DESCR) != id(array.dtype)
            or _int(a, _FLAGS) & _C_CONTIGUOUS != flag
        ):
            return False
    sample = [contiguous, strided]
    items = _word(id(sample), _LIST_ITEMS)
    return _word(items, 0) == id(contiguous) and _word(items, 8) == id(strided)


def native_infer_call() -> Callable[[int], int] | None:
    """`i32 lowpass_infer(ptr block)`, compiled once per process, or None where the
    interpreter's layout is not the one it reads."""
    with _LOCK:
        if not _CALL:
            if not layout_matches():
                _CALL.append(None)
            else:
                from lowpass.lowering.jit import compile_ir

                ir_text = _IR.replace("PARALLEL_COPY_MIN_BYTES", str(PARALLEL_COPY_MIN_BYTES))
                library = compile_ir(ir_text.replace("COPY_CHUNKS", str(COPY_CHUNKS)))
                call = ctypes.PYFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)(
                    library.address("lowpass_infer")
                )
                _CALL.extend((library, call))  # (the library keeps the code alive)
        return _CALL[-1]


def native_dtype(dtype: np.dtype[Any]) -> np.dtype[Any] | None:
    """The dtype object that numpy's arrays of `dtype` carry (builtin types are singletons),
    or None for a dtype that has none (byte-swapped, structured)."""
    canonical = np.dtype(dtype.type)
    return canonical if canonical.isbuiltin and canonical == dtype else None


class NativeInfer:
    """
    The native call of one request on `inputs` (the runtime's list of inputs, by index: the
    list object is bound once and read at each call). `run(share_outputs)` gives the outputs
    (fresh arrays, or the output buffers themselves if `share_outputs`), or None when an input
    needs the Python path; a failing graph's status (> 0) goes to `fail`, which raises.
    """

    def __init__(
        self,
        call: Callable[[int], int],
        entry_and_args: Sequence[int | None],
        inputs: list[Any],
        input_buffers: Sequence[np.ndarray],
        output_buffers: Sequence[np.ndarray],
        fail: Callable[[int], None],
        streams: tuple[Callable[[], int], Callable[[int], None], Sequence[int]] | None = None,
        pool: tuple[int, int] | None = None,
    ) -> None:
        dtypes = [native_dtype(b.dtype) for b in input_buffers]
        self._dims = [(ctypes.c_int64 * max(b.ndim, 1))(*b.shape) for b in input_buffers]
        self._in_table = (ctypes.c_int64 * max(7 * len(input_buffers), 1))()
        for i, (buffer, dtype) in enumerate(zip(input_buffers, dtypes, strict=True)):
            # (a buffer of no builtin dtype: neither the object nor the number is ever
            # equal, its inputs take the Python path)
            self._in_table[7 * i : 7 * i + 7] = [
                id(dtype),
                buffer.ndim,
                ctypes.addressof(self._dims[i]),
                buffer.nbytes,
                buffer.ctypes.data,
                0,
                dtype.num if dtype is not None else -1,
            ]
        self._out_dims = [(ctypes.c_int64 * max(b.ndim, 1))(*b.shape) for b in output_buffers]
        # (the arrays of the outputs list are np.empty's: their dtype object)
        out_dtypes = [np.empty(0, b.dtype).dtype for b in output_buffers]
        self._out_table = (ctypes.c_int64 * max(6 * len(output_buffers), 1))()
        for i, (buffer, dtype) in enumerate(zip(output_buffers, out_dtypes, strict=True)):
            self._out_table[6 * i : 6 * i + 6] = [
                buffer.ctypes.data, buffer.nbytes, 0, id(dtype), buffer.ndim,
                ctypes.addressof(self._out_dims[i])]
        save = ctypes.cast(ctypes.pythonapi.PyEval_SaveThread, ctypes.c_void_p).value
        restore = ctypes.cast(ctypes.pythonapi.PyEval_RestoreThread, ctypes.c_void_p).value
        self.block = (ctypes.c_int64 * 18)(
            *[a or 0 for a in entry_and_args],
            save or 0,
            restore or 0,
            id(inputs),
            0,
            id(np.ndarray),
            len(input_buffers),
            ctypes.addressof(self._in_table),
            len(output_buffers),
            ctypes.addressof(self._out_table),
            *(pool or (0, 0)),
        )
        # kept: the list and dtypes whose addresses the block holds
        self._keep = (inputs, dtypes, out_dtypes)
        self.run = self._runner(call, list(output_buffers), fail, streams)

    def _runner(
        self,
        call: Callable[[int], int],
        buffers: list[np.ndarray],
        fail: Callable[[int], None],
        streams: tuple[Callable[[], int], Callable[[int], None], Sequence[int]] | None,
    ) -> Callable[[bool], list[np.ndarray] | None]:
        block = self.block
        address = ctypes.addressof(block)
        if streams is not None:  # (NUM_STREAMS: the entry point of a free stream's code)
            acquire, release, entries = streams

            def call_in_stream(address: int, call: Callable[[int], int] = call) -> int:
                stream = acquire()
                try:
                    block[0] = entries[stream]
                    return call(address)
                finally:
                    release(stream)

            call = call_in_stream
        shapes = [b.shape for b in buffers]
        dtypes = [b.dtype for b in buffers]
        empty = np.empty
        # The outputs of the call before the last one, taken again when nothing outside holds
        # them or their list (`_take_unshared`): allocating a stateful LSTM step's three outputs
        # cost 1.3-2.4 us of its 3-6 us over the native call. The last call's outputs are
        # never reused: in `for x in xs: y = r.infer(x)`, `y` holds them during the next call.
        pool: list[list[np.ndarray] | None] = [None, None]  # [outputs before last, last]
        take = _take_unshared

        def run(share_outputs: bool) -> list[np.ndarray] | None:
            if share_outputs:
                outputs = buffers
                block[10] = 0
            else:
                outputs = take(pool)
                if outputs is None:
                    outputs = list(map(empty, shapes, dtypes))
                block[10] = id(outputs)
            status = call(address)
            if status == OUTPUTS_CHANGED:  # (a reused array reshaped by its last holder)
                outputs = list(map(empty, shapes, dtypes))
                block[10] = id(outputs)
                status = call(address)
            if status:
                if status == NOT_CHECKED:
                    return None
                fail(status)
            if not share_outputs:
                pool[0] = pool[1]
                pool[1] = outputs
            return outputs

        return run


def _reference_counts(pool: list[Any]) -> list[int]:
    """The reference counts `_take_unshared` sees of `pool[0]` and of its items where nothing
    else holds them: its twin (the same loads), so that they are measured on this CPython."""
    values = pool[0]
    counts = [getrefcount(values)]
    for value in values:
        counts.append(getrefcount(value))
    return counts


def _take_unshared(pool: list[Any]) -> list[np.ndarray] | None:
    """`pool[0]` if only `pool` holds that list and only the list holds its arrays (no results
    object, array or view of them is left anywhere: a view holds its base), else None. (That
    each array still has its output's form, the native call checks: `OUTPUTS_CHANGED`.)"""
    values = pool[0]
    if values is None or getrefcount(values) != _LIST_REFS:
        return None
    for value in values:
        if getrefcount(value) != _ITEM_REFS:
            return None
    return values


_LIST_REFS, _ITEM_REFS = _reference_counts([[np.empty(1)]])


__all__ = [
    "NOT_CHECKED",
    "OUTPUTS_CHANGED",
    "NativeInfer",
    "layout_matches",
    "native_dtype",
    "native_infer_call",
]
