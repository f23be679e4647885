"""CPU batching for the JIT: a list of compiled Numba kernel launches in, one native "driver" function out.

The driver is LLVM IR generated here and compiled with llvmlite (milliseconds, no Numba typing): it calls each
kernel's C-callable wrapper (which Numba builds for every `@njit` overload) through its absolute address, with the
kernel's scalar arguments (int64 and float64) as constants and its buffers as array structs over pointers read from
a table. The calls are opaque to LLVM, so the driver compiles in time linear in the number of launches and never
re-optimises kernels.

A replay writes the pointers of the buffers that change per call (inputs, outputs) into the table and calls the
driver through ctypes, so one replay is one foreign call.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core.compiler_lock import global_compiler_lock

from lazyarr.kernels import runtime_numba

_I64 = ir.IntType(64)
_lock = threading.Lock()


@dataclass(frozen=True)
class Launch:
    """One kernel call inside a driver: the njit kernel, the table slots of its buffers, its scalar args
    (`Lowered.args`: int64s, then float64s), and for a parallel kernel the extent of the first loop (the driver runs it
    whole, as `start=0, end=outer`)."""

    fn: Any
    slots: tuple[int, ...]
    ints: tuple[int | float, ...]
    parallel: bool
    outer: int


@dataclass(frozen=True)
class SlotInfo:
    """What the driver knows about table slot i: element count and the Numba array type the kernels take."""

    size: int
    nbtype: Any


def _target_machine() -> Any:
    """A new host target machine (each execution engine takes ownership of its own)."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(),
                                        opt=1, codemodel="jitdefault")


def _wrapper(fn: Any) -> tuple[int, Any, list[Any]]:
    """(address, LLVM function type, Numba arg types) of the C-callable wrapper of `fn`'s single overload."""
    sig = fn.signatures[0]
    cres = fn.overloads[sig]
    ctx = cres.target_context
    addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_cfunc_wrapper_name)
    if not addr:
        raise RuntimeError(f"numba kernel {fn} has no C wrapper")
    fnty = ir.FunctionType(ctx.get_value_type(cres.signature.return_type), [ctx.get_value_type(t) for t in sig])
    return addr, fnty, list(sig)


class Driver:
    """A compiled driver: `run(table_address)` runs every launch in order. Keeps its LLVM engine alive."""

    def __init__(self, launches: Sequence[Launch], slots: Sequence[SlotInfo]) -> None:
        self.n_launches = len(launches)
        source = _build_ir(launches, slots)
        with _lock, global_compiler_lock:
            mod = llvm.parse_assembly(source)
            mod.verify()
            self._engine = llvm.create_mcjit_compiler(mod, _target_machine())
            self._engine.finalize_object()
            self.address: int = self._engine.get_function_address("lazyarr_driver")
        # run(table address): the call releases the GIL; run_holding_gil keeps it (cheaper for a short driver)
        self.run: Callable[[int], None] = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self.address)
        self.run_holding_gil: Callable[[int], None] = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)(self.address)


def _build_ir(launches: Sequence[Launch], slots: Sequence[SlotInfo]) -> str:
    mod = ir.Module(name="lazyarr_driver")
    mod.triple = llvm.get_process_triple()
    fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), [_I64.as_pointer()]), name="lazyarr_driver")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    table = fn.args[0]
    arrays: dict[tuple[int, Any], Any] = {}  # (slot, llvm struct type) -> struct value, built once per buffer

    def array(slot: int, struct_ty: Any, nbtype: Any) -> Any:
        key = (slot, str(struct_ty))
        if key in arrays:
            return arrays[key]
        info = slots[slot]
        itemsize = np.dtype(str(nbtype.dtype)).itemsize
        ptr = b.load(b.gep(table, [ir.Constant(_I64, slot)]))
        members = struct_ty.elements
        null = ir.Constant(members[0], None)
        v = ir.Constant(struct_ty, ir.Undefined)
        v = b.insert_value(v, null, 0)  # meminfo: none, kernels never own their buffers
        v = b.insert_value(v, ir.Constant(members[1], None), 1)  # parent
        v = b.insert_value(v, ir.Constant(_I64, info.size), 2)
        v = b.insert_value(v, ir.Constant(_I64, itemsize), 3)
        v = b.insert_value(v, b.inttoptr(ptr, members[4]), 4)
        v = b.insert_value(v, ir.Constant(members[5], [info.size]), 5)
        v = b.insert_value(v, ir.Constant(members[6], [itemsize]), 6)
        arrays[key] = v
        return v

    for launch in launches:
        addr, fnty, argtypes = _wrapper(runtime_numba.numba_dispatcher(launch.fn))
        n_arr = len(launch.slots)
        args = [array(s, fnty.args[i], argtypes[i]) for i, s in enumerate(launch.slots)]
        scalars = ([0, launch.outer] if launch.parallel else []) + list(launch.ints)
        if len(scalars) != len(fnty.args) - n_arr:
            raise AssertionError(f"kernel {launch.fn} takes {len(fnty.args) - n_arr} scalars, given {len(scalars)}")
        for ty, v in zip(fnty.args[n_arr:], scalars):
            if isinstance(ty, ir.DoubleType):  # a float param: llvmlite writes the double's exact bits (NaN, -0.0)
                args.append(ir.Constant(ty, float(v)))
            elif ty == _I64 and isinstance(v, int):
                args.append(ir.Constant(_I64, v))
            else:
                raise AssertionError(f"kernel {launch.fn}: scalar {v!r} for a parameter of type {ty}")
        b.call(b.inttoptr(ir.Constant(_I64, addr), fnty.as_pointer()), args)
    b.ret_void()
    return str(mod)
