"""One training step of a 64->256->10 MLP (batch 256, softmax cross-entropy, SGD with momentum 0.9), side by side:
lazyarr `@lazyarr.jit`, lazyarr eager, NumPy written by hand, PyTorch eager and JAX `jax.jit` (when installed).

Run: `python benchmarks/bench_mlp_step.py [--steps 200] [--repeat 7] [--threads N]`. Every contender starts from the
same weights and batches; their first losses are checked against NumPy's before timing. Prints steps/s (median of
`repeat` runs of `steps` steps) and the ratio to lazyarr jit. `--threads` caps the threads of BLAS, PyTorch and
lazyarr (use it on a shared machine: oversubscribed BLAS threads can be 20x slower).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

if "--threads" in sys.argv:  # BLAS reads its thread count when NumPy is imported
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = sys.argv[sys.argv.index("--threads") + 1]

import numpy as np  # noqa: E402

import lazyarr as la  # noqa: E402
from lazyarr import Tensor  # noqa: E402

IN, HIDDEN, OUT, BATCH, LR, MOMENTUM = 64, 256, 10, 256, 0.05, 0.9

Step = Callable[[int], Any]  # step(batch index) -> loss (any type)


def init_weights(seed: int = 0) -> dict[str, np.ndarray]:
    """PyTorch's Linear initialisation, weights stored (out, in) like PyTorch."""
    rng = np.random.default_rng(seed)
    b1, b2 = 1 / math.sqrt(IN), 1 / math.sqrt(HIDDEN)
    shapes = {"w1": ((HIDDEN, IN), b1), "b1": ((HIDDEN,), b1), "w2": ((OUT, HIDDEN), b2), "b2": ((OUT,), b2)}
    return {k: rng.uniform(-b, b, shape).astype(np.float32) for k, (shape, b) in shapes.items()}


def numpy_step(w: dict[str, np.ndarray], xs: list[np.ndarray], ys: list[np.ndarray]) -> Step:
    p = {k: v.copy() for k, v in w.items()}
    vel = {k: np.zeros_like(v) for k, v in w.items()}
    rows = np.arange(BATCH)

    def step(i: int) -> float:
        x, y = xs[i], ys[i]
        h = x @ p["w1"].T + p["b1"]
        a = np.maximum(h, 0)
        logits = a @ p["w2"].T + p["b2"]
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        loss = float(np.mean(np.log(s[:, 0]) - z[rows, y]))
        g = e / s
        g[rows, y] -= 1
        g /= BATCH
        grads = {"w2": g.T @ a, "b2": g.sum(axis=0)}
        dh = (g @ p["w2"]) * (h > 0)
        grads["w1"], grads["b1"] = dh.T @ x, dh.sum(axis=0)
        for k in p:  # PyTorch's SGD: v = mu * v + g; p -= lr * v
            vel[k] *= MOMENTUM
            vel[k] += grads[k]
            p[k] -= LR * vel[k]
        return loss

    return step


def lazyarr_step(w: dict[str, np.ndarray], xs: list[np.ndarray], ys: list[np.ndarray], jit: bool) -> Step:
    nn, functional, optim = la.nn, la.nn.functional, la.optim
    model = nn.Sequential(nn.Linear(IN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, OUT))
    model.load_state_dict({"0.weight": Tensor(w["w1"]), "0.bias": Tensor(w["b1"]), "2.weight": Tensor(w["w2"]),
                           "2.bias": Tensor(w["b2"])})
    opt = optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    txs = [Tensor(x).realize() for x in xs]
    tys = [Tensor(y).realize() for y in ys]

    def train(x: Tensor, y: Tensor) -> Tensor:
        opt.zero_grad()
        loss = functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    fn = la.jit(train) if jit else train
    return lambda i: fn(txs[i], tys[i])


def torch_step(w: dict[str, np.ndarray], xs: list[np.ndarray], ys: list[np.ndarray]) -> Step:
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(IN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, OUT))
    with torch.no_grad():
        for layer, (wk, bk) in ((model[0], ("w1", "b1")), (model[2], ("w2", "b2"))):
            layer.weight.copy_(torch.from_numpy(w[wk]))
            layer.bias.copy_(torch.from_numpy(w[bk]))
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    txs = [torch.from_numpy(x) for x in xs]
    tys = [torch.from_numpy(y.astype(np.int64)) for y in ys]

    def step(i: int) -> Any:
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(txs[i]), tys[i])
        loss.backward()
        opt.step()
        return loss

    return step


def jax_step(w: dict[str, np.ndarray], xs: list[np.ndarray], ys: list[np.ndarray]) -> Step:
    import jax
    import jax.numpy as jnp

    def loss_fn(p: dict[str, Any], x: Any, y: Any) -> Any:
        h = jnp.maximum(x @ p["w1"].T + p["b1"], 0)
        logits = h @ p["w2"].T + p["b2"]
        return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], axis=1)[:, 0])

    @jax.jit
    def update(p: dict[str, Any], v: dict[str, Any], x: Any, y: Any) -> tuple[Any, Any, Any]:
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        v = jax.tree_util.tree_map(lambda vk, gk: MOMENTUM * vk + gk, v, g)
        p = jax.tree_util.tree_map(lambda pk, vk: pk - LR * vk, p, v)
        return p, v, loss

    state = {"p": {k: jnp.asarray(v) for k, v in w.items()}, "v": {k: jnp.zeros_like(v) for k, v in w.items()}}
    jxs, jys = [jnp.asarray(x) for x in xs], [jnp.asarray(y.astype(np.int32)) for y in ys]

    def step(i: int) -> Any:
        state["p"], state["v"], loss = update(state["p"], state["v"], jxs[i], jys[i])
        return loss

    return step


def as_float(loss: Any) -> float:
    return float(loss.item() if hasattr(loss, "item") else loss)


def steps_per_s(step: Step, steps: int, repeat: int, n_batches: int, sync: Callable[[Any], Any]) -> float:
    for i in range(3):
        sync(step(i % n_batches))
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        loss = None
        for i in range(steps):
            loss = step(i % n_batches)
        sync(loss)
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--batches", type=int, default=8, help="distinct input batches cycled through")
    parser.add_argument("--threads", type=int, default=0, help="threads for PyTorch and lazyarr (0: defaults)")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((BATCH, IN)).astype(np.float32) for _ in range(args.batches)]
    ys = [rng.integers(0, OUT, BATCH).astype(np.int32) for _ in range(args.batches)]
    w = init_weights()
    reference = numpy_step(w, xs, ys)(0)

    contenders: dict[str, Callable[[], Step]] = {}
    if hasattr(la, "nn") and hasattr(la, "optim"):
        contenders["lazyarr jit"] = lambda: lazyarr_step(w, xs, ys, jit=True)
        contenders["lazyarr eager"] = lambda: lazyarr_step(w, xs, ys, jit=False)
    else:
        print("(lazyarr.nn / lazyarr.optim not available in this checkout: lazyarr rows skipped)")
    contenders["numpy by hand"] = lambda: numpy_step(w, xs, ys)
    try:
        import torch

        if args.threads:
            torch.set_num_threads(args.threads)
        contenders["pytorch eager"] = lambda: torch_step(w, xs, ys)
        torch_note = f"torch {torch.__version__}, {torch.get_num_threads()} threads"
    except ImportError:
        torch_note = "torch not installed"
    try:
        import jax

        contenders["jax.jit"] = lambda: jax_step(w, xs, ys)
        jax_note = f"jax {jax.__version__}"
    except ImportError:
        jax_note = "jax not installed"

    results: dict[str, float] = {}
    ctx = la.Context(NUM_THREADS=args.threads) if args.threads else la.Context()
    with ctx:
        for name, make in contenders.items():
            step = make()
            first = as_float(step(0))
            if not math.isclose(first, reference, rel_tol=1e-4):
                raise AssertionError(f"{name}: first loss {first} != numpy's {reference}")
            results[name] = steps_per_s(step, args.steps, args.repeat, args.batches, as_float)
    base = results.get("lazyarr jit", max(results.values()))
    print(f"MLP {IN}->{HIDDEN}->{OUT} training step, batch {BATCH}, cross-entropy, SGD momentum {MOMENTUM}; "
          f"median of {args.repeat} x {args.steps} steps ({torch_note}; {jax_note})")
    print(f"{'contender':<16}{'steps/s':>10}{'us/step':>10}{'vs lazyarr jit':>16}")
    for name, rate in results.items():
        print(f"{name:<16}{rate:>10.0f}{1e6 / rate:>10.1f}{base / rate:>16.2f}")


if __name__ == "__main__":
    main()
