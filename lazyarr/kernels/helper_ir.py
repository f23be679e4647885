"""LLVM IR of the transcendental functions, shipped with the package, for kernels compiled without Numba.

`render_llvm` builds a kernel's LLVM IR itself and compiles it with llvmlite alone (a cold first call then never
imports or runs Numba, whose start-up and compile take over a second). Its kernels call the same functions the Numba
kernels call (`lazyarr.kernels.transcendental`): their LLVM IR, as Numba compiles them, is generated once with
`python scripts/gen_helper_ir.py` and kept in `helper_ir/` (one module per function, plus `manifest.json`).

The manifest records a digest of the Python source the IR was generated from, the Numba and llvmlite versions
that generated it and a digest of each IR file. The IR is used only when the first two match the running ones and
every file is there, readable and unchanged; otherwise kernels compile through Numba as before (same results, slower
first call). A test checks that the shipped IR matches the source.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from typing import Any

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "helper_ir")
MANIFEST = os.path.join(DIR, "manifest.json")
# the modules the IR is compiled from: a change to either makes the shipped IR stale
SOURCES = ("transcendental.py", "numba_support.py")


def _function_names() -> dict[str, int]:
    """Every helper a kernel may call, with its argument count."""
    names: dict[str, int] = {}
    for name in ("exp", "exp2", "log", "log2", "log1p", "expm1", "sin", "cos", "tan", "tanh", "erf", "pow"):
        for t in ("f32", "f64"):
            names[f"{name}_{t}"] = 2 if name == "pow" else 1
    for name in ("sin", "cos", "tan"):
        for t in ("f32", "f64"):
            names[f"{name}_{t}_small"] = 1
    names["exp_f32_small"] = names["log_f32_small"] = 1  # the small variants: render_numba.RANGED
    return names


FUNCTIONS = _function_names()


def source_digest() -> str:
    """SHA-256 of the Python modules the helper IR is generated from."""
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in SOURCES:
        with open(os.path.join(here, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


def toolchain() -> dict[str, str]:
    """The installed Numba and llvmlite versions (without importing Numba, and without importlib.metadata, which
    costs tens of milliseconds: Numba's version is read from its _version.py)."""
    import importlib.util
    import re

    import llvmlite

    numba = "unknown"
    spec = importlib.util.find_spec("numba")
    if spec is not None and spec.origin is not None:
        try:
            with open(os.path.join(os.path.dirname(spec.origin), "_version.py")) as f:
                found = re.search(r'"version":\s*"([^"]+)"', f.read())
            numba = found.group(1) if found else numba
        except OSError:
            pass
    return {"numba": numba, "llvmlite": str(llvmlite.__version__)}


def _file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@functools.cache
def manifest() -> dict[str, Any] | None:
    """The shipped manifest when it is current for this source and toolchain and every IR file it lists is intact,
    else None (a damaged or missing file must not reach LLVM: a kernel then compiles through Numba)."""
    try:
        with open(MANIFEST) as f:
            m = json.load(f)
        if not isinstance(m, dict) or m.get("source") != source_digest() or m.get("toolchain") != toolchain():
            return None
        functions, files = m.get("functions"), m.get("files")
        if not isinstance(functions, dict) or not isinstance(files, dict) or set(functions) != set(FUNCTIONS) or \
                not all(isinstance(functions[n], str) and isinstance(files.get(n), str) for n in FUNCTIONS):
            return None
        texts: dict[str, str] = {}
        for name in FUNCTIONS:
            with open(os.path.join(DIR, f"{name}.ll"), "rb") as f:
                data = f.read()
            if _file_digest(data) != files[name]:
                return None
            texts[name] = data.decode()
            if f"@{functions[name]}(" not in texts[name]:  # the symbol a kernel calls must be the one defined
                return None
        return {**m, "texts": texts}
    except (OSError, ValueError, ImportError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None


def available() -> bool:
    """Whether kernels may be compiled without Numba here (the shipped IR is current)."""
    return manifest() is not None


def symbol(name: str) -> str:
    """The LLVM symbol of helper `name`: `i32 (ptr retptr, ptr excinfo, args...)`, Numba's calling convention (the
    result is stored at retptr; the status is always 0: these functions cannot raise)."""
    m = manifest()
    assert m is not None, "helper IR is not available"
    return str(m["functions"][name])


def ir_text(name: str) -> str:
    """The LLVM IR module defining helper `name` (and the functions it calls, as linkonce_odr definitions), as checked
    against its digest when the manifest was read."""
    m = manifest()
    assert m is not None, "helper IR is not available"
    return str(m["texts"][name])


def generate(directory: str = DIR) -> dict[str, Any]:
    """Compile every helper with Numba and write its IR and the manifest to `directory` (needs Numba)."""
    import re

    from numba import njit, types

    from lazyarr.kernels import transcendental

    os.makedirs(directory, exist_ok=True)
    symbols: dict[str, str] = {}
    files: dict[str, str] = {}
    for name, nargs in FUNCTIONS.items():
        ty = types.float64 if "_f64" in name else types.float32
        params = ", ".join(f"x{i}" for i in range(nargs))
        scope = {"f": getattr(transcendental, name)}
        exec(f"def wrapper({params}):\n    return f({params})\n", scope)  # noqa: S102  (a fixed one-line body)
        wrapper = njit(ty(*[ty] * nargs), no_cpython_wrapper=True, no_cfunc_wrapper=True, error_model="numpy")(
            scope["wrapper"])
        cres = wrapper.overloads[wrapper.signatures[0]]
        text = cres.library.get_llvm_str()
        mangled = cres.fndesc.mangled_name
        public = f"lazyarr_helper_{name}"
        text = re.sub(rf"@{re.escape(mangled)}\b", f"@{public}", text)
        with open(os.path.join(directory, f"{name}.ll"), "wb") as f:
            f.write(text.encode())
        symbols[name] = public
        files[name] = _file_digest(text.encode())
    m = {"source": source_digest(), "toolchain": toolchain(), "functions": symbols, "files": files}
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(m, f, indent=1, sort_keys=True)
        f.write("\n")
    return m

