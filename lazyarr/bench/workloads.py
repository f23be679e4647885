"""The benchmark workloads: NumPy input data, the ideal memory traffic or flop count, and one implementation per
contender (lazyarr, NumPy, numexpr, PyTorch, JAX). Every implementation computes the same float32 values.

A workload's `lazy` function takes Tensors and returns realised Tensors (so it can be wrapped by `lazyarr.jit`);
`torch` and `jax` functions take the library's arrays and return its arrays (so they can be compiled); `numpy` and
`numexpr` return a thunk over the NumPy data.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

F32 = np.float32


@dataclass
class Workload:
    """One benchmark: `data(rng)` makes the NumPy inputs; `ideal_bytes` (memory-bound) or `flops` (compute-bound)
    gives its limit; each contender function is None when that library cannot express it."""

    name: str
    data: Callable[[np.random.Generator], dict[str, np.ndarray]]
    numpy: Callable[[dict[str, np.ndarray]], Callable[[], Any]]
    lazy: Callable[..., Any] | None = None
    numexpr: Callable[[dict[str, np.ndarray], Any], Callable[[], Any]] | None = None
    torch: Callable[..., Any] | None = None
    jax: Callable[..., Any] | None = None
    ideal_bytes: int = 0
    flops: int = 0
    kind: str = "memory"  # "memory", "compute" or "dispatch": which limit applies
    # contender name -> (data, library module or None) -> thunk, for workloads with state (a training step)
    custom: dict[str, Callable[[dict[str, np.ndarray], Any], Callable[[], Any]]] = field(default_factory=dict)
    stream: bool = False  # a bandwidth probe: its best rate sets the memory limit of every workload
    check: bool = True  # compare every contender's output with NumPy's
    note: str = ""
    state: dict[str, Any] = field(default_factory=dict)


def _realize(*ts: Any) -> Any:
    ts[0].realize(*ts[1:])
    return ts if len(ts) > 1 else ts[0]


# ---- STREAM: the bandwidth limit ----
def stream_workloads(n: int) -> list[Workload]:
    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"b": rng.standard_normal(n).astype(F32), "c": rng.standard_normal(n).astype(F32)}

    s = F32(3.0)
    copy = Workload(
        "STREAM copy", data, numpy=lambda d: lambda: d["b"].copy(), lazy=lambda b, c: _realize(b.clone()),
        torch=lambda b, c: b.clone(), jax=lambda b, c: b * 1.0, ideal_bytes=2 * 4 * n, stream=True,
        numexpr=lambda d, ne: lambda: ne.evaluate("b", local_dict={"b": d["b"]}))
    triad = Workload(
        "STREAM triad", data, numpy=lambda d: lambda: d["b"] + s * d["c"], lazy=lambda b, c: _realize(b + 3.0 * c),
        torch=lambda b, c: b + 3.0 * c, jax=lambda b, c: b + 3.0 * c, ideal_bytes=3 * 4 * n, stream=True,
        numexpr=lambda d, ne: lambda: ne.evaluate("b + s * c", local_dict={"b": d["b"], "c": d["c"], "s": s}))
    total = Workload(
        "read-only sum", data, numpy=lambda d: lambda: d["b"].sum(), lazy=lambda b, c: _realize(b.sum()),
        torch=lambda b, c: b.sum(), jax=lambda b, c: b.sum(), ideal_bytes=4 * n, stream=True,
        numexpr=lambda d, ne: lambda: ne.evaluate("sum(b)", local_dict={"b": d["b"]}))
    return [copy, triad, total]


# ---- the elementwise chain a*b + c*exp(-d)*sin(a) ----
def chain_workload(log2n: int) -> Workload:
    n = 1 << log2n

    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {k: rng.standard_normal(n).astype(F32) for k in "abcd"}

    def np_chain(d: dict[str, np.ndarray]) -> Callable[[], Any]:
        a, b, c, dd = d["a"], d["b"], d["c"], d["d"]
        return lambda: a * b + c * np.exp(-dd) * np.sin(a)

    return Workload(
        f"chain 2**{log2n}", data, numpy=np_chain,
        lazy=lambda a, b, c, d: _realize(a * b + c * (-d).exp() * a.sin()),
        numexpr=lambda d, ne: lambda: ne.evaluate("a*b + c*exp(-d)*sin(a)", local_dict=d),
        torch=lambda a, b, c, d: a * b + c * (-d).exp() * a.sin(),
        jax=_jax_chain, ideal_bytes=5 * 4 * n)


def _jax_chain(a: Any, b: Any, c: Any, d: Any) -> Any:
    import jax.numpy as jnp

    return a * b + c * jnp.exp(-d) * jnp.sin(a)


# ---- row softmax ----
def softmax_workload(rows: int, cols: int) -> Workload:
    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"x": rng.standard_normal((rows, cols)).astype(F32)}

    def np_softmax(d: dict[str, np.ndarray]) -> Callable[[], Any]:
        x = d["x"]

        def run() -> Any:
            e = np.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)

        return run

    def torch_softmax(x: Any) -> Any:
        return x.softmax(dim=1)

    def jax_softmax(x: Any) -> Any:
        import jax

        return jax.nn.softmax(x, axis=1)

    return Workload(f"softmax {rows}x{cols}", data, numpy=np_softmax, lazy=lambda x: _realize(x.softmax(1)),
                    torch=torch_softmax, jax=jax_softmax, ideal_bytes=2 * 4 * rows * cols)


# ---- Black-Scholes: call and put prices ----
BS_R, BS_V = 0.02, 0.30


def black_scholes_workload(n: int) -> Workload:
    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"spot": rng.uniform(5, 30, n).astype(F32), "strike": rng.uniform(1, 100, n).astype(F32),
                "years": rng.uniform(0.25, 10, n).astype(F32)}

    r, v = F32(BS_R), F32(BS_V)
    sqrt_half = F32(math.sqrt(0.5))

    def np_bs(d: dict[str, np.ndarray]) -> Callable[[], Any]:
        from math import erf

        verf = np.frompyfunc(erf, 1, 1)  # NumPy has no erf: scipy.special.erf when present
        try:
            from scipy.special import erf as verf  # type: ignore[no-redef]
        except ImportError:
            pass
        s, k, t = d["spot"], d["strike"], d["years"]

        def run() -> Any:
            sq = v * np.sqrt(t)
            d1 = (np.log(s / k) + (r + F32(0.5) * v * v) * t) / sq
            d2 = d1 - sq
            disc = k * np.exp(-r * t)
            c1, c2 = F32(0.5) + F32(0.5) * verf(d1 * sqrt_half), F32(0.5) + F32(0.5) * verf(d2 * sqrt_half)
            return s * c1 - disc * c2, disc * (F32(1) - c2) - s * (F32(1) - c1)

        return run

    def lazy_bs(s: Any, k: Any, t: Any) -> Any:
        sq = t.sqrt() * BS_V
        d1 = ((s / k).log() + (BS_R + 0.5 * BS_V * BS_V) * t) / sq
        d2 = d1 - sq
        disc = k * (t * -BS_R).exp()
        c1, c2 = 0.5 + 0.5 * (d1 * float(sqrt_half)).erf(), 0.5 + 0.5 * (d2 * float(sqrt_half)).erf()
        return _realize(s * c1 - disc * c2, disc * (1 - c2) - s * (1 - c1))

    def ne_bs(d: dict[str, np.ndarray], ne: Any) -> Callable[[], Any]:
        # numexpr has no erf: the cumulative normal by the Abramowitz-Stegun polynomial (|error| < 7.5e-8)
        consts = {"r": r, "v": v, "half": F32(0.5), "one": F32(1), "p": F32(0.2316419), "a1": F32(0.319381530),
                  "a2": F32(-0.356563782), "a3": F32(1.781477937), "a4": F32(-1.821255978), "a5": F32(1.330274429),
                  "rs2pi": F32(1 / math.sqrt(2 * math.pi))}
        poly = "rs2pi * exp(-half * {x} * {x}) * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))"
        cnd = "where({x} >= 0, one - " + poly + ", " + poly + ")"

        def run() -> Any:
            loc = dict(consts, **d)
            loc["sq"] = ne.evaluate("v * sqrt(years)", local_dict=loc)
            loc["d1"] = ne.evaluate("(log(spot / strike) + (r + half * v * v) * years) / sq", local_dict=loc)
            loc["d2"] = ne.evaluate("d1 - sq", local_dict=loc)
            for name in ("d1", "d2"):
                loc["k"] = ne.evaluate(f"one / (one + p * abs({name}))", local_dict=loc)
                loc["c" + name[1]] = ne.evaluate(cnd.format(x=name), local_dict=loc)
            call = ne.evaluate("spot * c1 - strike * exp(-r * years) * c2", local_dict=loc)
            put = ne.evaluate("strike * exp(-r * years) * (one - c2) - spot * (one - c1)", local_dict=loc)
            return call, put

        return run

    def torch_bs(s: Any, k: Any, t: Any) -> Any:
        import torch

        sq = BS_V * t.sqrt()
        d1 = ((s / k).log() + (BS_R + 0.5 * BS_V * BS_V) * t) / sq
        d2 = d1 - sq
        disc = k * torch.exp(-BS_R * t)
        c1, c2 = 0.5 + 0.5 * torch.erf(d1 * float(sqrt_half)), 0.5 + 0.5 * torch.erf(d2 * float(sqrt_half))
        return s * c1 - disc * c2, disc * (1 - c2) - s * (1 - c1)

    def jax_bs(s: Any, k: Any, t: Any) -> Any:
        import jax.numpy as jnp
        from jax.scipy.special import erf

        sq = BS_V * jnp.sqrt(t)
        d1 = (jnp.log(s / k) + (BS_R + 0.5 * BS_V * BS_V) * t) / sq
        d2 = d1 - sq
        disc = k * jnp.exp(-BS_R * t)
        c1, c2 = 0.5 + 0.5 * erf(d1 * float(sqrt_half)), 0.5 + 0.5 * erf(d2 * float(sqrt_half))
        return s * c1 - disc * c2, disc * (1 - c2) - s * (1 - c1)

    return Workload(f"Black-Scholes 2**{int(math.log2(n))}", data, numpy=np_bs, lazy=lazy_bs, numexpr=ne_bs,
                    torch=torch_bs, jax=jax_bs, ideal_bytes=5 * 4 * n,
                    note="numexpr: cumulative normal by a polynomial (it has no erf)")


# ---- matmul ----
def matmul_workloads(n: int) -> list[Workload]:
    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"x": rng.standard_normal((n, n)).astype(F32), "w": rng.standard_normal((n, n)).astype(F32),
                "b": rng.standard_normal(n).astype(F32)}

    def jax_relu(x: Any, w: Any, b: Any) -> Any:
        import jax.numpy as jnp

        return jnp.maximum(x @ w + b, 0)

    def torch_relu(x: Any, w: Any, b: Any) -> Any:
        return (x @ w + b).relu()

    flops = 2 * n * n * n
    mm = Workload(f"matmul {n}^3", data, numpy=lambda d: lambda: d["x"] @ d["w"], lazy=lambda x, w, b: _realize(x @ w),
                  torch=lambda x, w, b: x @ w, jax=lambda x, w, b: x @ w, flops=flops, kind="compute")
    relu = Workload(f"relu(x@w+b) {n}", data, numpy=lambda d: lambda: np.maximum(d["x"] @ d["w"] + d["b"], F32(0)),
                    lazy=lambda x, w, b: _realize((x @ w + b).relu()), torch=torch_relu, jax=jax_relu,
                    flops=flops + 3 * n * n, kind="compute")
    return [mm, relu]


# ---- MLP training step: 64 -> 256 -> 10, softmax cross-entropy, SGD with momentum ----
MLP_BATCH, MLP_IN, MLP_HIDDEN, MLP_OUT, MLP_LR, MLP_MOMENTUM = 256, 64, 256, 10, 0.01, 0.9


def mlp_workload() -> Workload:
    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"x": rng.standard_normal((MLP_BATCH, MLP_IN)).astype(F32),
                "y": rng.integers(0, MLP_OUT, MLP_BATCH).astype(np.int64),
                "w1": (rng.standard_normal((MLP_IN, MLP_HIDDEN)) / 8).astype(F32), "b1": np.zeros(MLP_HIDDEN, F32),
                "w2": (rng.standard_normal((MLP_HIDDEN, MLP_OUT)) / 16).astype(F32), "b2": np.zeros(MLP_OUT, F32)}

    def np_step(d: dict[str, np.ndarray]) -> Callable[[], Any]:
        params = {k: d[k].copy() for k in ("w1", "b1", "w2", "b2")}
        vel = {k: np.zeros_like(v) for k, v in params.items()}
        x, onehot = d["x"], np.eye(MLP_OUT, dtype=F32)[d["y"]]

        def run() -> Any:
            p = params
            h = x @ p["w1"] + p["b1"]
            a = np.maximum(h, F32(0))
            logits = a @ p["w2"] + p["b2"]
            z = logits - logits.max(axis=1, keepdims=True)
            e = np.exp(z)
            s = e.sum(axis=1, keepdims=True)
            loss = -(z * onehot).sum() / MLP_BATCH + np.log(s).sum() / MLP_BATCH
            g_logits = (e / s - onehot) / F32(MLP_BATCH)
            grads = {"w2": a.T @ g_logits, "b2": g_logits.sum(0)}
            g_h = (g_logits @ p["w2"].T) * (h > 0)
            grads["w1"], grads["b1"] = x.T @ g_h, g_h.sum(0)
            for k in p:
                vel[k] *= F32(MLP_MOMENTUM)
                vel[k] += grads[k]
                p[k] -= F32(MLP_LR) * vel[k]
            return loss

        return run

    custom = {"lazyarr": _lazy_mlp, "lazyarr FUSE=0": _lazy_mlp, "lazyarr jit": _lazy_mlp_jit,
              "torch": _torch_mlp, "torch.compile": _torch_mlp, "jax": _jax_mlp}
    return Workload("MLP train step", data, numpy=np_step, custom=custom, kind="compute", check=False,
                    flops=6 * MLP_BATCH * (MLP_IN * MLP_HIDDEN + MLP_HIDDEN * MLP_OUT))


def _lazy_mlp_step(d: dict[str, np.ndarray]) -> Callable[..., Any]:
    """A lazyarr training step (nn.Linear layers, cross-entropy, `backward`, optim.SGD with momentum), as PyTorch's."""
    import lazyarr
    from lazyarr import Tensor

    if not hasattr(lazyarr, "nn") or not hasattr(lazyarr, "optim"):
        raise NotImplementedError("lazyarr has no nn/optim on this branch")
    nn = lazyarr.nn
    model = nn.Sequential(nn.Linear(MLP_IN, MLP_HIDDEN), nn.ReLU(), nn.Linear(MLP_HIDDEN, MLP_OUT))
    model.load_state_dict({"0.weight": Tensor(d["w1"].T.copy()), "0.bias": Tensor(d["b1"]),
                           "2.weight": Tensor(d["w2"].T.copy()), "2.bias": Tensor(d["b2"])})
    opt = lazyarr.optim.SGD(model.parameters(), lr=MLP_LR, momentum=MLP_MOMENTUM)

    def step(x: Any, y: Any) -> Any:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


def _lazy_mlp(d: dict[str, np.ndarray], lib: Any) -> Callable[[], Any]:
    from lazyarr import Tensor

    step, x, y = _lazy_mlp_step(d), Tensor(d["x"]).realize(), Tensor(d["y"]).realize()
    return lambda: step(x, y).realize()


def _lazy_mlp_jit(d: dict[str, np.ndarray], lib: Any) -> Callable[[], Any]:
    import lazyarr
    from lazyarr import Tensor

    step, x, y = lazyarr.jit(_lazy_mlp_step(d)), Tensor(d["x"]).realize(), Tensor(d["y"]).realize()
    return lambda: step(x, y)


def _torch_mlp(d: dict[str, np.ndarray], compiled: Any) -> Callable[[], Any]:
    import torch

    params = {k: torch.tensor(d[k], requires_grad=True) for k in ("w1", "b1", "w2", "b2")}
    vel = {k: torch.zeros_like(v) for k, v in params.items()}
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])

    def step() -> Any:
        p = params
        logits = torch.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
        loss = torch.nn.functional.cross_entropy(logits, y)
        loss.backward()
        with torch.no_grad():
            for k, t in p.items():
                vel[k].mul_(MLP_MOMENTUM).add_(t.grad)
                t.sub_(MLP_LR * vel[k])
                t.grad = None
        return loss

    return torch.compile(step) if compiled else step


def _jax_mlp(d: dict[str, np.ndarray], lib: Any) -> Callable[[], Any]:
    import jax
    import jax.numpy as jnp

    def loss_fn(p: dict[str, Any], x: Any, y: Any) -> Any:
        logits = jnp.maximum(x @ p["w1"] + p["b1"], 0) @ p["w2"] + p["b2"]
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    @jax.jit
    def step(p: dict[str, Any], v: dict[str, Any], x: Any, y: Any) -> Any:
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        v = {k: v[k] * MLP_MOMENTUM + g[k] for k in p}
        return {k: p[k] - MLP_LR * v[k] for k in p}, v, loss

    state = {"p": {k: jnp.asarray(d[k]) for k in ("w1", "b1", "w2", "b2")}}
    state["v"] = {k: jnp.zeros_like(t) for k, t in state["p"].items()}
    x, y = jnp.asarray(d["x"]), jnp.asarray(d["y"])

    def run() -> Any:
        state["p"], state["v"], loss = step(state["p"], state["v"], x, y)
        return loss.block_until_ready()

    return run


# ---- dispatch: x + 1 on 16 floats ----
def dispatch_workload() -> Workload:
    def data(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"x": rng.standard_normal(16).astype(F32)}

    one = F32(1)
    return Workload("dispatch x+1 (16)", data, numpy=lambda d: lambda: d["x"] + one,
                    lazy=lambda x: _realize(x + 1), torch=lambda x: x + 1, jax=lambda x: x + 1,
                    numexpr=lambda d, ne: lambda: ne.evaluate("x + one", local_dict={"x": d["x"], "one": one}),
                    kind="dispatch")


def all_workloads(quick: bool = False) -> list[Workload]:
    """Every workload, in report order."""
    return [*stream_workloads(1 << 24), chain_workload(22), chain_workload(16), softmax_workload(4096, 1024),
            black_scholes_workload(1 << 20), *matmul_workloads(1024), mlp_workload(), dispatch_workload()]
