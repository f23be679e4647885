"""Compiled CPU kernels as native object code: saved right after Numba compiles a kernel, loaded by a later process
with llvmlite's JIT linker alone, so a warm-cache first call never imports Numba (its start-up alone takes 0.5-1 s).

`export` (Numba loaded) takes the object code Numba produced for a kernel, checks that the kernel reaches no Numba
runtime function (allocation, exceptions, the GIL, Python objects), and writes it with a small LLVM IR entry point
that builds the kernel's array arguments from (pointer, size) integer pairs (int64 and float64 scalars pass as they
are). `load` (Numba not needed) links the two
into a fresh JIT library and returns a `NativeKernel`: the same machine code Numba would run, so the same results.
A kernel that is not eligible, or a file that cannot be read, is simply not native: the caller uses Numba's dispatcher.

Kernels `render_llvm` built (position-independent code) are also linked into a shared library by the system C
compiler, when there is one, in the background (`save_shared`); a later process opens that with ctypes alone
(`load_shared`), without even importing llvmlite's binding (about 40 ms of a warm first call).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from typing import Any

FORMAT = "3"
ENTRY = "lazyarr_native_entry"
SUFFIX = ".native"
# external symbols a native kernel must not reach: Numba's runtime (they live in Numba's extension modules, unexported,
# so only an imported Numba can provide them), the Python C API (a kernel that needs the GIL or Python objects) and
# NumPy's gemm (numpy_blas.SYMBOLS: registered with llvmlite only when numba_support is imported)
_NUMBA_RUNTIME = ("NRT_", "numba_", "Py", "_Py", "lazyarr_numpy_")
# reached only through NRT_decref of an array the kernel was given (meminfo NULL here, so never called)
_UNREACHED_WITH_NULL_MEMINFO = {"NRT_MemInfo_call_dtor"}

_lock = threading.Lock()
_jit: Any = None
_libraries = 0


@functools.cache
def host_key() -> str:
    """What a saved object is only valid for: this module (format, entry point), llvmlite/LLVM and the host CPU and its
    features (the kernel's own source, helpers and Numba version are in its name)."""
    import llvmlite
    from llvmlite import binding as llvm

    with open(os.path.abspath(__file__), "rb") as f:  # this module writes the entry point and reads the file
        own = hashlib.sha256(f.read()).hexdigest()
    desc = (f"{FORMAT}|{own}|{llvmlite.__version__}|{llvm.llvm_version_info}|{llvm.get_process_triple()}|"
            f"{llvm.get_host_cpu_name()}|{llvm.get_host_cpu_features().flatten()}")
    return hashlib.sha256(desc.encode()).hexdigest()[:16]


def path_for(kernel_path: str, built_by: str = "") -> str:
    """Where the native object of the kernel module at `kernel_path` (<name>.py) lives for this host; `built_by`
    "llvm" names the object `render_llvm` built (so that LAZYARR_LLVM=0 never loads one)."""
    return f"{kernel_path[:-3]}{'.' + built_by if built_by else ''}.{host_key()}{SUFFIX}"


# ---- export (Numba is loaded) ----

_SYMBOL = r'@("(?:[^"\\]|\\.)*"|[-\w.$]+)'
_TOP = re.compile(rf"^(define|declare)\b[^@\n]*{_SYMBOL}|^{_SYMBOL} = ", re.M)
_REF = re.compile(_SYMBOL)


def _name(token: str) -> str:
    return token[1:-1] if token.startswith('"') else token


def _module_graph(ir_text: str) -> tuple[dict[str, set[str]], set[str]]:
    """(symbol -> symbols its definition refers to, external symbols) of an LLVM IR module's text."""
    graph: dict[str, set[str]] = {}
    externals: set[str] = set()
    tops = list(_TOP.finditer(ir_text))
    for i, m in enumerate(tops):
        kind, name = m.group(1), _name(m.group(2) or m.group(3))
        end = tops[i + 1].start() if i + 1 < len(tops) else len(ir_text)
        text = ir_text[m.end():end]
        if kind == "declare" or (kind is None and re.match(r"\s*(external|extern_weak)\b", text)):
            externals.add(name)
            continue
        graph[name] = {_name(r) for r in _REF.findall(text)}
    return graph, externals


def _reached(graph: dict[str, set[str]], root: str) -> set[str]:
    seen, todo = {root}, [root]
    while todo:
        for ref in graph.get(todo.pop(), ()):
            if ref not in seen:
                seen.add(ref)
                todo.append(ref)
    return seen


def _entry_ir(cres: Any) -> tuple[str, str] | None:
    """(LLVM IR of `i32 ENTRY(i64 ptr0, i64 size0, ..., i64 int0, ..., double float0, ...)`, the entry's argument
    kinds: "i" int64, "d" double, one letter each). The entry calls the kernel (Numba's calling convention) with 1-D
    C-contiguous arrays over the given pointers and the scalars as given; returns the kernel's status (0: ok)."""
    from llvmlite import ir
    from numba.core import types

    ctx, sig = cres.target_context, cres.signature
    i64, f64 = ir.IntType(64), ir.DoubleType()
    params: list[ir.Type] = []
    kinds = ""
    for t in sig.args:
        if isinstance(t, types.Array):
            if t.ndim != 1 or t.layout != "C":
                return None
            params += [i64, i64]
            kinds += "ii"
        elif t == types.int64:
            params.append(i64)
            kinds += "i"
        elif t == types.float64:
            params.append(f64)
            kinds += "d"
        else:
            return None
    module = ir.Module(name=ENTRY)
    entry = ir.Function(module, ir.FunctionType(ir.IntType(32), params), ENTRY)
    kernel = ir.Function(module, ctx.call_conv.get_function_type(sig.return_type, sig.args), cres.fndesc.mangled_name)
    builder = ir.IRBuilder(entry.append_basic_block())
    args = iter(entry.args)
    values = []
    for t in sig.args:
        if isinstance(t, types.Array):
            data, size = next(args), next(args)
            # Numba's array struct: meminfo (none: the kernel owns nothing), parent, nitems, itemsize, data, shape,
            # strides; built by hand because Numba's make_array helpers cost tens of ms the first time
            struct = ctx.get_value_type(t)
            members = struct.elements
            itemsize = ir.Constant(i64, ctx.get_abi_sizeof(ctx.get_data_type(t.dtype)))
            value = ir.Constant(struct, ir.Undefined)
            fields = [ir.Constant(members[0], None), ir.Constant(members[1], None), size, itemsize,
                      builder.inttoptr(data, members[4]), None, None]
            for i, field in enumerate(fields[:5]):
                value = builder.insert_value(value, field, i)
            value = builder.insert_value(value, builder.insert_value(ir.Constant(members[5], ir.Undefined), size, 0), 5)
            value = builder.insert_value(value, ir.Constant(members[6], [itemsize.constant]), 6)
            values.append(value)
        else:
            values.append(next(args))
    status, _ = ctx.call_conv.call_function(builder, kernel, sig.return_type, sig.args, values)
    builder.ret(builder.select(status.is_ok, ir.Constant(ir.IntType(32), 0), ir.Constant(ir.IntType(32), 1)))
    return str(module), kinds


def export(fn: Any, path: str) -> bool:
    """Save the object code of the freshly compiled single-signature Numba dispatcher `fn` at `path`, if the kernel is
    eligible (reaches no Numba runtime function, takes only 1-D C arrays, int64s and float64s). Returns whether it
    saved."""
    cres = fn.overloads[fn.signatures[0]]
    library = cres.library
    try:
        obj = library._get_compiled_object()  # noqa: SLF001  (what Numba writes to its own cache)
    except (RuntimeError, ValueError):
        return False
    graph, externals = _module_graph(library.get_llvm_str())
    reached = _reached(graph, cres.fndesc.mangled_name)
    needs = (reached & externals) - _UNREACHED_WITH_NULL_MEMINFO
    if any(s.startswith(_NUMBA_RUNTIME) for s in needs):
        return False
    entry = _entry_ir(cres)
    if entry is None:
        return False
    entry_ir, kinds = entry
    entry_obj = _emit_object(entry_ir)
    # symbols only the Python-facing wrappers in the same object use: linked to a stub that aborts, never called
    stubs = sorted(s for s in externals - needs if s.startswith(_NUMBA_RUNTIME))
    return save(path, kinds, entry_obj, obj, stubs)


def save(path: str, kinds: str, entry_obj: bytes, obj: bytes = b"", stubs: list[str] | None = None) -> bool:
    """Write a native kernel: `entry_obj` defines ENTRY (taking arguments of `kinds`), `obj` (optional) the code it
    calls; `stubs` are symbols linked to an abort stub. Returns True."""
    payload = entry_obj + obj
    meta = {"args": kinds, "stubs": stubs or [], "entry_size": len(entry_obj)}
    header = json.dumps({**meta, "sha256": _checksum(meta, payload, path)}).encode()
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(tmp, "wb") as f:
        f.write(len(header).to_bytes(8, "little") + header + payload)
    os.replace(tmp, path)
    return True


def _checksum(meta: dict[str, Any], payload: bytes, path: str) -> str:
    """SHA-256 of the file's name, the header's fields and the object code: a damaged header (a wrong argument count
    would make the ctypes call pass the wrong arguments) is caught like damaged code, and so is another kernel's file
    copied or renamed onto this one's name (it would compute the other kernel)."""
    head = json.dumps({**meta, "file": os.path.basename(path)}, sort_keys=True)
    return hashlib.sha256(head.encode() + b"\0" + payload).hexdigest()


@functools.cache
def _target_machine() -> Any:
    from llvmlite import binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # opt=0: the entry point only repacks arguments, and LLVM's optimising code generator costs ~15 ms even for that
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), codemodel="jitdefault", opt=0)


def _emit_object(ir_text: str) -> bytes:
    """Object code of an LLVM IR module for this host (compiled at export, so loading only links)."""
    from llvmlite import binding as llvm

    tm = _target_machine()
    module = llvm.parse_assembly(ir_text)
    module.triple = llvm.get_process_triple()
    module.data_layout = str(tm.target_data)
    module.verify()
    return bytes(tm.emit_object(module))


# ---- load (no Numba) ----


class NativeKernel:
    """A kernel linked from its saved object. `raw(ptr0, size0, ..., int0, ..., float0, ...)` runs it (releasing the
    GIL);
    calling it with NumPy arrays in place of the (pointer, size) pairs works too, like the Numba dispatcher."""

    def __init__(self, name: str, raw: Any, tracker: Any) -> None:
        self.name, self.raw, self._tracker = name, raw, tracker
        self.source = ""  # the rendered module, and its Numba dispatcher once one is needed (the JIT's batch driver)
        self.dispatcher: Any = None

    def __repr__(self) -> str:
        return f"<NativeKernel {self.name}>"

    def __call__(self, *args: Any) -> None:
        flat: list[int | float] = []
        for a in args:
            if isinstance(a, (int, float)):
                flat.append(a)
            else:
                flat += [a.ctypes.data, a.size]
        check(self.raw(*flat), self.name)


def check(status: int, name: str) -> None:
    """Raise if a native kernel reported an error status (eligible kernels cannot raise; this is a guard)."""
    if status:
        raise RuntimeError(f"native kernel {name} failed with status {status}")


def _engine() -> Any:
    global _jit
    if _jit is None:
        from llvmlite import binding as llvm

        _jit = llvm.create_lljit_compiler(_target_machine.__wrapped__())  # the JIT owns its target machine
    return _jit


@functools.cache
def _abort_address() -> int:
    return int(ctypes.cast(ctypes.CDLL(None).abort, ctypes.c_void_p).value or 0)


_CTYPE: dict[str, Any] = {"i": ctypes.c_int64, "d": ctypes.c_double}


def link(name: str, kinds: str, entry_obj: bytes, obj: bytes = b"",
         stubs: list[str] | tuple[str, ...] = ()) -> NativeKernel:
    """Link object code defining ENTRY (arguments of `kinds`) into a fresh JIT library: the kernel `name`."""
    from llvmlite import binding as llvm

    global _libraries
    with _lock:
        jit = _engine()
        builder = llvm.JITLibraryBuilder().add_object_img(entry_obj)
        if obj:
            builder.add_object_img(obj)
        builder.add_current_process()
        for stub in stubs:
            builder.import_symbol(stub, _abort_address())
        builder.export_symbol(ENTRY)
        _libraries += 1
        tracker = builder.link(jit, f"{name}_{_libraries}")
    raw = ctypes.CFUNCTYPE(ctypes.c_int32, *(_CTYPE[k] for k in kinds))(tracker[ENTRY])
    return NativeKernel(name, raw, tracker)


def load(path: str, name: str) -> NativeKernel | None:
    """The native kernel saved at `path`, or None when there is none (or it cannot be read or linked)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    try:
        n = int.from_bytes(data[:8], "little")
        meta = json.loads(data[8:8 + n])
        payload = data[8 + n:]
        sha = meta.pop("sha256")
        kinds = meta["args"]
        if _checksum(meta, payload, path) != sha or not isinstance(kinds, str) or set(kinds) - set(_CTYPE) or \
                not isinstance(meta["entry_size"], int) or not 0 <= meta["entry_size"] <= len(payload):
            raise ValueError("checksum mismatch")
        entry_obj, obj = payload[:meta["entry_size"]], payload[meta["entry_size"]:]
        return link(name, kinds, entry_obj, obj, meta["stubs"])
    except Exception:  # an unreadable or unlinkable entry: drop it (the caller compiles or loads with Numba)
        try:
            os.remove(path)
        except OSError:
            pass
        return None


# ---- shared libraries (kernels render_llvm built; no llvmlite needed to load) ----

SHARED_SUFFIX = ".so"


@functools.cache
def shared_host_key() -> str:
    """What a saved shared library is only valid for, read without llvmlite's binding: this module, llvmlite's version
    (which fixes LLVM's), and the CPU's model and feature flags from /proc/cpuinfo; "" where those cannot be read
    (then no shared libraries are used)."""
    import platform

    import llvmlite

    try:
        with open("/proc/cpuinfo") as f:
            info = f.read().split("\n\n")[0]
        with open(os.path.abspath(__file__), "rb") as f:
            own = hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return ""
    cpu = [line for line in info.splitlines() if line.split(":")[0].strip() in ("model name", "flags", "Features")]
    if not cpu:
        return ""
    desc = f"{FORMAT}|{own}|{llvmlite.__version__}|{platform.machine()}|{'|'.join(cpu)}"
    return hashlib.sha256(desc.encode()).hexdigest()[:16]


def shared_path_for(kernel_path: str) -> str | None:
    """Where the shared library of the render_llvm kernel module at `kernel_path` lives for this host (None: not
    supported here)."""
    key = shared_host_key()
    return f"{kernel_path[:-3]}.llvm.{key}{SHARED_SUFFIX}" if key else None


_link_lock = threading.Lock()
_link_jobs: list[Any] = []
_link_thread: threading.Thread | None = None


def _link_worker() -> None:
    """Run queued links one at a time; the thread ends when none is left (the next one queued starts another)."""
    global _link_thread
    while True:
        with _link_lock:
            if not _link_jobs:
                _link_thread = None
                return
            job = _link_jobs.pop(0)
        job()


def _forget_links() -> None:  # a forked child has none of the parent's threads
    global _link_thread, _link_lock
    _link_lock, _link_thread = threading.Lock(), None
    _link_jobs.clear()


os.register_at_fork(after_in_child=_forget_links)


def save_shared(path: str, kinds: str, obj: bytes, wait: bool = False) -> None:
    """Link position-independent object code `obj` (defining ENTRY, arguments of `kinds`) into a shared library at
    `path` with the system C compiler (nothing without one): queued for one background thread that runs the links
    in turn (`wait`: at once, on this thread). The library's SHA-256 and `kinds` go into `path`.json, which
    `load_shared` checks before opening it. The thread is not a daemon: a process that compiled new kernels waits
    at exit for their libraries (a few tens of milliseconds each)."""
    global _link_thread
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return

    def work() -> None:
        try:
            links = os.path.join(os.path.dirname(path), ".links")
            os.makedirs(links, exist_ok=True)
            _remove_stale(links)
            with tempfile.TemporaryDirectory(dir=links) as d:
                src, lib = os.path.join(d, "k.o"), os.path.join(d, "k.so")
                with open(src, "wb") as f:
                    f.write(obj)
                subprocess.run([cc, "-shared", "-o", lib, src, "-lm"], check=True, capture_output=True, timeout=60)
                with open(lib, "rb") as f:
                    digest = _shared_checksum(path, kinds, f.read())
                with open(os.path.join(d, "k.json"), "w") as f:
                    json.dump({"sha256": digest, "args": kinds}, f)
                # the library first, its sidecar last: a reader that finds no sidecar leaves the library alone
                os.replace(lib, path)
                os.replace(os.path.join(d, "k.json"), f"{path}.json")
        except (OSError, subprocess.SubprocessError):  # no usable compiler or cache: the .native object still works
            pass

    # at interpreter exit (an atexit handler compiling a kernel) a new thread would not be waited for (Python 3.11:
    # the library is lost) or cannot start (3.12+: RuntimeError): link on this thread
    if wait or getattr(threading, "_SHUTTING_DOWN", False):
        work()
        return
    with _link_lock:
        _link_jobs.append(work)
        if _link_thread is not None:
            return
        _link_thread = threading.Thread(target=_link_worker, name="lazyarr-link")
        try:
            _link_thread.start()
            return
        except RuntimeError:  # no new thread can start (interpreter shutdown, a thread limit): link here
            _link_thread = None
            jobs = _link_jobs[:]
            _link_jobs.clear()
    for job in jobs:
        job()


STALE_LINK_S = 3600.0  # a link folder this old belongs to a process that was killed mid-link


def _remove_stale(links: str) -> None:
    """Remove the link folders of processes killed or ended by os._exit while linking (nothing else cleans them)."""
    now = time.time()
    try:
        with os.scandir(links) as entries:
            stale = [e.path for e in entries if e.is_dir() and now - e.stat().st_mtime > STALE_LINK_S]
    except OSError:
        return
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)


def _shared_checksum(path: str, kinds: str, data: bytes) -> str:
    """SHA-256 of the library's file name, its argument kinds and its bytes: a sidecar whose kinds were changed (the
    ctypes call would pass the wrong arguments), or another kernel's library and sidecar renamed onto this one's names
    (it would compute the other kernel), do not match."""
    return hashlib.sha256(f"{os.path.basename(path)}|{kinds}\0".encode() + data).hexdigest()


def load_shared(path: str, name: str) -> NativeKernel | None:
    """The kernel in the shared library at `path`, or None when there is none, or it does not match its checksum."""
    try:
        with open(f"{path}.json", "rb") as f:
            sidecar = f.read()
    except FileNotFoundError:  # none, or a process is between writing the library and its sidecar
        return None
    except OSError:
        sidecar = b""
    try:
        meta = json.loads(sidecar)
        with open(path, "rb") as f:
            data = f.read()
        kinds = meta["args"]
        if not isinstance(kinds, str) or set(kinds) - set(_CTYPE) or \
                _shared_checksum(path, kinds, data) != meta["sha256"]:
            raise ValueError("checksum mismatch")
        lib = ctypes.CDLL(path)
        raw = ctypes.CFUNCTYPE(ctypes.c_int32, *(_CTYPE[k] for k in kinds))((ENTRY, lib))
    except Exception:  # noqa: BLE001  (any damaged sidecar, even one nested too deep for json: drop it and the library)
        for stale in (path, f"{path}.json"):
            try:
                os.remove(stale)
            except OSError:
                pass
        return None
    return NativeKernel(name, raw, lib)
