"""Modules and state: registration, parameters(), state_dict() keys, load_state_dict() errors, .npz/safetensors."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor, nn, optim
from lazyarr.nn import state


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 5))
        self.scale = 2.0  # a plain attribute is not state

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.bn(self.conv(x)).relu()) * self.scale


KEYS = ["conv.weight", "conv.bias", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var",
        "bn.num_batches_tracked", "head.1.weight", "head.1.bias"]


def test_registration_and_keys() -> None:
    net = Net()
    assert list(net.state_dict()) == KEYS
    names = [n for n, _ in net.named_parameters()]
    assert names == [k for k in KEYS if "running" not in k and "num_batches" not in k]
    assert all(p.requires_grad for p in net.parameters())
    assert [n for n, _ in net.named_buffers()] == ["bn.running_mean", "bn.running_var", "bn.num_batches_tracked"]
    assert state.parameters(net) == list(net.parameters())
    assert net.bn.num_batches_tracked.dtype == lazyarr.int64
    assert isinstance(net.conv.weight, nn.Parameter) and not isinstance(net.bn.running_mean, nn.Parameter)
    frozen = nn.Parameter(Tensor(np.ones(2, np.float32)), requires_grad=False)
    net.frozen = frozen  # a Parameter registers even when it does not require grad
    assert "frozen" in net.state_dict() and not frozen.requires_grad
    del net.frozen
    net.eval()
    assert not net.bn.training and not net.head[1].training
    net.train()
    assert net.bn.training


def test_state_dict_keys_match_torch() -> None:
    torch = pytest.importorskip("torch")
    tnet = torch.nn.Sequential()
    tnet.add_module("conv", torch.nn.Conv2d(2, 3, 3, padding=1))
    tnet.add_module("bn", torch.nn.BatchNorm2d(3))
    tnet.add_module("head", torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(48, 5)))
    assert list(tnet.state_dict()) == KEYS
    net = Net()
    net.load_state_dict(tnet.state_dict())
    for k, v in tnet.state_dict().items():
        np.testing.assert_array_equal(net.state_dict()[k].numpy(), v.numpy())


def test_load_state_dict_in_place_and_errors() -> None:
    net, other = Net(), Net()
    weight = net.conv.weight
    opt = optim.SGD(net.parameters(), lr=0.1)
    net.load_state_dict(other.state_dict())
    assert net.conv.weight is weight  # loaded in place: the optimizer still holds the same tensors
    assert opt.params[0] is weight
    np.testing.assert_array_equal(weight.numpy(), other.conv.weight.numpy())

    sd = dict(other.state_dict())
    del sd["bn.bias"]
    sd["extra"] = Tensor(np.zeros(2, np.float32))
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "bn.bias"') as err:
        net.load_state_dict(sd)
    assert 'Unexpected key(s) in state_dict: "extra"' in str(err.value)
    result = net.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["bn.bias"] and result.unexpected_keys == ["extra"]

    sd = dict(other.state_dict())
    sd["head.1.weight"] = np.zeros((4, 48), np.float32)
    before = net.conv.bias.numpy()
    with pytest.raises(ValueError, match=r"size mismatch for head.1.weight.*\(4, 48\).*\(5, 48\)"):
        net.load_state_dict(sd, strict=False)
    np.testing.assert_array_equal(net.conv.bias.numpy(), before)  # nothing was loaded


@pytest.mark.parametrize("suffix", [".npz", ".safetensors"])
def test_save_load_round_trip(tmp_path: Path, suffix: str) -> None:
    if suffix == ".safetensors":
        pytest.importorskip("safetensors")
    net = Net()
    x = Tensor(np.random.default_rng(0).standard_normal((2, 2, 4, 4)).astype(np.float32))
    net(x)  # a training forward updates the running statistics
    path = tmp_path / f"net{suffix}"
    state.save(net.state_dict(), path)
    loaded = state.load(path)
    assert list(loaded) == KEYS
    fresh = Net()
    fresh.load_state_dict(loaded)
    for k, v in net.state_dict().items():
        np.testing.assert_array_equal(fresh.state_dict()[k].numpy(), v.numpy())
        assert fresh.state_dict()[k].dtype == v.dtype
    net.eval()
    fresh.eval()
    np.testing.assert_array_equal(fresh(x).numpy(), net(x).numpy())


def test_safetensors_missing_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "safetensors", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "safetensors.numpy", None)
    with pytest.raises(ImportError, match="pip install safetensors"):
        state.save({"w": Tensor(np.ones(3, np.float32))}, tmp_path / "w.safetensors")
    with pytest.raises(ImportError, match="pip install safetensors"):
        state.load(tmp_path / "w.safetensors")
    state.save({"w": Tensor(np.arange(3, dtype=np.float32))}, tmp_path / "w.npz")  # .npz needs nothing more
    np.testing.assert_array_equal(state.load(tmp_path / "w.npz")["w"].numpy(), np.arange(3, dtype=np.float32))


def test_plain_object_state() -> None:
    class Holder:
        def __init__(self) -> None:
            self.layers = [nn.Linear(2, 2), nn.Linear(2, 1)]
            self.extra = {"t": Tensor(np.ones(2, np.float32), requires_grad=True)}

    h = Holder()
    assert list(state.state_dict(h)) == ["layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias",
                                         "extra.t"]
    assert len(state.parameters(h)) == 5
    new = {k: np.full(v.shape, 3.0, np.float32) for k, v in state.state_dict(h).items()}
    state.load_state_dict(h, new)
    np.testing.assert_array_equal(h.extra["t"].numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(h.layers[1].bias.numpy(), [3.0])


def test_nn_state_is_reachable_as_the_readme_writes_it() -> None:
    # a fresh interpreter: in this file `from lazyarr.nn import state` has already bound the attribute
    import subprocess
    import sys

    code = "from lazyarr import nn; nn.state.save, nn.state.load"
    subprocess.run([sys.executable, "-c", code], check=True)
