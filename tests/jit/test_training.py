"""A jitted training loop matches the same loop run eagerly (parameters, optimizer and BatchNorm state, rtol 1e-5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor

nn = pytest.importorskip("lazyarr.nn")
optim = pytest.importorskip("lazyarr.optim")
F = nn.functional

STEPS = 10
rng = np.random.default_rng(11)
BATCHES = [(rng.standard_normal((16, 8)).astype(np.float32), rng.integers(0, 3, 16).astype(np.int32))
           for _ in range(STEPS)]


def mlp() -> Any:
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))


def mlp_bn_dropout() -> Any:
    return nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 3))


def train(make_model: Callable[[], Any], make_opt: Callable[[Any], Any], jit: bool) -> dict[str, np.ndarray]:
    Tensor.manual_seed(0)
    model = make_model()
    opt = make_opt(model.parameters())

    def step(x: Tensor, y: Tensor) -> Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    fn = lazyarr.jit(step) if jit else step
    losses = [fn(Tensor(x), Tensor(y)) for x, y in BATCHES]
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    state["losses"] = np.array([loss.item() for loss in losses])
    return state


@pytest.mark.parametrize(("make_model", "make_opt"), [
    (mlp, lambda p: optim.SGD(p, lr=0.1, momentum=0.9)),  # momentum buffers
    (mlp_bn_dropout, lambda p: optim.Adam(p, lr=0.01)),  # Adam's moments and step, running stats, the RNG counter
], ids=["mlp-sgd-momentum", "batchnorm-dropout-adam"])
def test_jitted_training_matches_eager(make_model: Callable[[], Any], make_opt: Callable[[Any], Any]) -> None:
    eager = train(make_model, make_opt, jit=False)
    jitted = train(make_model, make_opt, jit=True)
    assert eager.keys() == jitted.keys()
    for k in eager:
        np.testing.assert_allclose(jitted[k], eager[k], rtol=1e-5, atol=1e-6, err_msg=k)
    assert len(set(eager["losses"].tolist())) == STEPS  # the weights really moved on every replay


def test_jitted_embedding_training_matches_eager() -> None:
    # an Embedding gathers rows by a Tensor index: capturing it read the index values (JitError on call 2)
    rows = np.random.default_rng(3).standard_normal((10, 4)).astype(np.float32)
    idx = [(rng.integers(0, 10, (8, 5)), rng.integers(0, 3, 8)) for _ in range(5)]

    def run(jit: bool) -> list[np.ndarray]:
        Tensor.manual_seed(0)
        emb, lin = nn.Embedding(10, 4, padding_idx=0), nn.Linear(4, 3)
        with lazyarr.no_grad():
            emb.weight.assign(Tensor(rows))
        opt = optim.Adam([*emb.parameters(), *lin.parameters()], lr=0.05)

        def step(x: Tensor, y: Tensor) -> Tensor:
            opt.zero_grad()
            loss = F.cross_entropy(lin(emb(x).mean(1)), y)
            loss.backward()
            opt.step()
            return loss

        fn = lazyarr.jit(step) if jit else step
        losses = [fn(Tensor(x), Tensor(y)).item() for x, y in idx]
        return [np.array(losses), emb.weight.numpy(), lin.weight.numpy()]

    for jitted, eager in zip(run(True), run(False)):
        np.testing.assert_allclose(jitted, eager, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("update", [True, False], ids=["step-without-zero-grad", "accumulate-only"])
def test_jitted_gradient_accumulation_matches_eager(update: bool) -> None:
    # .grad accumulated by rebinding a new tensor, Python state that a replay does not update: every replay added the
    # new gradient to the capture call's old one (silently wrong weights and .grad)
    def run(jit: bool) -> list[np.ndarray]:
        Tensor.manual_seed(0)
        model = mlp()
        opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

        def step(x: Tensor, y: Tensor) -> Tensor:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            if update:
                opt.step()
            return loss

        fn = lazyarr.jit(step) if jit else step
        losses = [fn(Tensor(x), Tensor(y)).item() for x, y in BATCHES[:6]]
        params = list(model.parameters())
        return [np.array(losses), *(p.numpy() for p in params), *(p.grad.numpy() for p in params)]

    for jitted, eager in zip(run(True), run(False)):
        np.testing.assert_allclose(jitted, eager, rtol=1e-5, atol=1e-6)


# where the loop clears the gradient around the jitted step, as a loop over PyTorch tensors would
_ZERO_GRAD = ["inside-start", "inside-end", "none-inside", "outside-before", "outside-after", "none-outside",
              "every-second-step", "never"]


def _grad_loop(lib: Any, zero: str, step_jit: Callable[[Callable], Callable] | None = None) -> list[Any]:
    """The gradient after each step and the final weights of an SGD loop whose `zero_grad(set_to_none=True)` (or
    `w.grad = None`) sits where `zero` says."""
    import torch

    w0 = np.array([1.0, -2.0, 0.5], np.float32)
    xs = [np.random.default_rng(k).standard_normal(3).astype(np.float32) for k in range(6)]
    if lib == "torch":
        w, T = torch.tensor(w0, requires_grad=True), torch.tensor
        opt: Any = torch.optim.SGD([w], lr=0.1)
    else:
        w, T = Tensor(w0, requires_grad=True), Tensor
        opt = optim.SGD([w], lr=0.1)

    def step(x: Any) -> Any:
        if zero == "inside-start":
            opt.zero_grad(set_to_none=True)
        if zero == "none-inside":
            w.grad = None
        loss = ((w * x) ** 2).sum()
        loss.backward()
        opt.step()
        if zero == "inside-end":
            opt.zero_grad(set_to_none=True)
        return loss

    if step_jit is not None:
        step = step_jit(step)
    out: list[Any] = []
    for k, x in enumerate(xs):
        if zero == "outside-before" or zero == "every-second-step" and k % 2 == 0:
            opt.zero_grad(set_to_none=True)
        if zero == "none-outside":
            w.grad = None
        step(T(x))
        out.append(None if w.grad is None else np.array(w.grad.detach().numpy()))  # a copy: torch adds in place
        if zero == "outside-after":
            opt.zero_grad(set_to_none=True)
    return [*out, np.asarray(w.detach().numpy())]


@pytest.mark.parametrize("zero", _ZERO_GRAD)
def test_grad_after_replays_matches_torch(zero: str) -> None:
    # a replay does not run the body: `.grad` set to None outside the step stayed None after it (eager execution
    # sets it), and a capture that added into a `.grad` a later call had cleared added into the stale one. Replays
    # now set the `.grad` the capture left, and a call whose `.grad` state differs from the capture's captures again
    pytest.importorskip("torch")
    want = _grad_loop("torch", zero)
    got = _grad_loop("lazyarr", zero, lazyarr.jit)
    for k, (g, w) in enumerate(zip(got, want)):
        assert (g is None) == (w is None), f"step {k}: grad {g} != {w}"
        if w is not None:
            np.testing.assert_allclose(g, w, rtol=1e-5, err_msg=f"step {k}")
