"""Movement ops and indexing against NumPy: reshape, permute, transpose, T, expand, broadcast_to, squeeze,
unsqueeze, flatten, pad, flip, cat, stack, split, chunk, repeat, and `__getitem__` with ints, slices (negative
steps), None, Ellipsis, integer tensors/lists/arrays and boolean masks (NumPy's advanced-index placement rules)."""

import numpy as np
import pytest

from lazyarr import Tensor
from tests.helpers import assert_close, kernel_count, sample

A = sample("float32", (2, 3, 4))
INTS = sample("int64", (3, 5), 1)


def test_reshape() -> None:
    t = Tensor(A)
    for shape in [(24,), (4, 6), (2, -1), (-1,), (1, 2, 1, 12, 1), (4, 3, 2)]:
        assert_close(t.reshape(shape), A.reshape(shape))
        assert_close(t.reshape(*shape), A.reshape(shape))
    assert_close(t.permute(2, 0, 1).reshape(-1, 6), A.transpose(2, 0, 1).reshape(-1, 6))  # needs a copy
    assert_close(t[:, ::-1].reshape(6, 4), A[:, ::-1].reshape(6, 4))
    assert_close(Tensor(np.float32(3)).reshape(1, 1), np.float32(3).reshape(1, 1))
    assert_close(Tensor(np.zeros((1,), np.int32)).reshape(()), np.zeros((1,), np.int32).reshape(()))
    assert_close(Tensor(np.zeros((0, 3))).reshape(3, 0, 5), np.zeros((0, 3)).reshape(3, 0, 5))
    assert_close(t.view(3, 8), A.reshape(3, 8))
    with kernel_count(0):
        Tensor(A).realize().reshape(4, 6).realize()


def test_permute_transpose_T() -> None:
    t = Tensor(A)
    assert_close(t.permute(2, 0, 1), A.transpose(2, 0, 1))
    assert_close(t.permute((1, 2, 0)), A.transpose(1, 2, 0))
    assert_close(t.permute(-1, 0, -2), A.transpose(-1, 0, -2))
    assert_close(t.transpose(0, 2), A.swapaxes(0, 2))
    assert_close(t.transpose(), A.transpose())
    assert_close(t.transpose((2, 0, 1)), A.transpose((2, 0, 1)))
    assert_close(t.transpose(1, 0, 2), A.transpose(1, 0, 2))
    assert_close(Tensor(INTS).transpose(1, 0), INTS.transpose(1, 0))
    with pytest.raises(ValueError):
        t.transpose(0, 0, 1)
    assert_close(t.T, A.T)
    assert_close(t.mT, np.swapaxes(A, -1, -2))
    assert_close(Tensor(INTS).T, INTS.T)
    assert_close(Tensor(np.float32(1)).T, np.float32(1).T)


def test_expand_broadcast_to() -> None:
    b = sample("int32", (3, 1))
    assert_close(Tensor(b).expand(2, 3, 4), np.broadcast_to(b, (2, 3, 4)))
    assert_close(Tensor(b).expand(-1, 5), np.broadcast_to(b, (3, 5)))
    assert_close(Tensor(b).broadcast_to((2, 3, 6)), np.broadcast_to(b, (2, 3, 6)))
    assert_close(Tensor(b).broadcast_to((3, 0)), np.broadcast_to(b, (3, 0)))
    assert_close(Tensor(np.float32(2)).broadcast_to((2, 2)), np.broadcast_to(np.float32(2), (2, 2)))
    assert_close(Tensor(b).T.expand(4, 3) + 0, np.broadcast_to(b.T, (4, 3)))


def test_squeeze_unsqueeze_flatten() -> None:
    x = sample("float64", (1, 3, 1, 4))
    t = Tensor(x)
    assert_close(t.squeeze(), x.squeeze())
    assert_close(t.squeeze(0), x.squeeze(0))
    assert_close(t.squeeze(-2), x.squeeze(-2))
    assert_close(t.squeeze((0, 2)), x.squeeze((0, 2)))
    for d in (0, 2, 4, -1, -5):
        assert_close(t.unsqueeze(d), np.expand_dims(x, d))
    assert_close(t.flatten(), x.flatten())
    assert_close(t.flatten(1), x.reshape(1, -1))
    assert_close(t.flatten(1, 2), x.reshape(1, 3, 4))
    assert_close(t.ravel(), x.ravel())
    assert_close(Tensor(np.float32(5)).flatten(), np.float32(5).flatten())
    assert_close(Tensor(np.float32(5)).unsqueeze(0), np.float32(5).reshape(1))


def test_pad() -> None:
    x = sample("float32", (2, 3))
    t = Tensor(x)
    assert_close(t.pad(((1, 2), (0, 3))), np.pad(x, ((1, 2), (0, 3))))
    assert_close(t.pad(((1, 0), (2, 1)), value=-1.5), np.pad(x, ((1, 0), (2, 1)), constant_values=-1.5))
    assert_close(t.pad((1, 2)), np.pad(x, ((0, 0), (1, 2))))  # PyTorch style: the last dim first
    assert_close(t.pad((1, 1, 0, 2)), np.pad(x, ((0, 2), (1, 1))))
    assert_close(t.pad(((0, 0), (-1, 1))), np.pad(x, ((0, 0), (0, 1)))[:, 1:])  # negative padding crops
    assert_close(
        Tensor(sample("int32", (3,))).pad(((2, 2),), value=7), np.pad(sample("int32", (3,)), 2, constant_values=7)
    )
    assert_close(t.T.pad(((1, 1), (0, 0))), np.pad(x.T, ((1, 1), (0, 0))))
    n = np.array([-0.0, np.nan], np.float32)
    assert_close(Tensor(n).pad(((1, 1),)), np.pad(n, 1))
    # value=-0.0 pads with -0.0 (it compared equal to 0 and took the plain zero padding)
    got, ref = Tensor(n).pad(((1, 1),), value=-0.0).numpy(), np.pad(n, 1, constant_values=-0.0)
    assert_close(got, ref)
    assert (np.signbit(got) == np.signbit(ref)).all()


def test_flip() -> None:
    t = Tensor(A)
    assert_close(t.flip(), np.flip(A))
    assert_close(t.flip(0), np.flip(A, 0))
    assert_close(t.flip((0, 2)), np.flip(A, (0, 2)))
    assert_close(t.flip(-1), np.flip(A, -1))
    assert_close(t.T.flip(1), np.flip(A.T, 1))


def test_cat_stack() -> None:
    a, b, c = sample("float32", (2, 3), 0), sample("float32", (1, 3), 1), sample("int32", (4, 3), 2)
    assert_close(Tensor(a).cat(Tensor(b), Tensor(c)), np.concatenate([a, b, c]))
    assert_close(Tensor(a).cat(Tensor(a), dim=-1), np.concatenate([a, a], -1))
    assert_close(Tensor(a).cat(Tensor(np.zeros((0, 3), np.float32))), np.concatenate([a, np.zeros((0, 3), np.float32)]))
    z = np.array([[-0.0, np.nan, -np.inf]], np.float32)
    got = Tensor(z).cat(Tensor(z)).numpy()
    assert np.array_equal(np.signbit(got), np.signbit(np.concatenate([z, z])))  # -0.0 survives
    assert_close(got, np.concatenate([z, z]))
    bb = sample("bool", (2, 3), 3)
    assert_close(Tensor(bb).cat(Tensor(bb)), np.concatenate([bb, bb]))
    assert_close(Tensor(a).stack(Tensor(a * 2)), np.stack([a, a * 2]))
    assert_close(Tensor(a).stack(Tensor(a), dim=-1), np.stack([a, a], -1))
    assert_close(Tensor(a).stack(Tensor(a), dim=1), np.stack([a, a], 1))
    assert_close(Tensor(np.float32(1)).stack(Tensor(np.float32(2))), np.stack([np.float32(1), np.float32(2)]))
    assert_close(Tensor.cat(Tensor(a), Tensor(b)), np.concatenate([a, b]))
    assert_close(Tensor(a).T.cat(Tensor(a)[:, ::-1].T, dim=1), np.concatenate([a.T, a[:, ::-1].T], 1))


def test_cat_stack_sequences_and_numpy_integer_dims() -> None:
    # one sequence of tensors, as torch.cat/stack; NumPy integer dims, as np.concatenate/np.stack and torch accept
    a, b = sample("float32", (2, 3), 0), sample("float32", (2, 3), 1)
    assert_close(Tensor.cat([Tensor(a), Tensor(b)], dim=np.int64(1)), np.concatenate([a, b], np.int64(1)))
    assert_close(Tensor.stack((Tensor(a), Tensor(b)), dim=np.int32(-1)), np.stack([a, b], np.int32(-1)))
    assert_close(Tensor(a).flip(np.int64(0)), np.flip(a, np.int64(0)))
    for bad, err in [([], ValueError), ([Tensor(a), [Tensor(b)]], TypeError), ((t for t in [Tensor(a)]), TypeError)]:
        with pytest.raises(err):
            Tensor.stack(bad)
    with pytest.raises(TypeError):
        Tensor.cat([Tensor(a)], Tensor(b))
    with pytest.raises(TypeError):
        Tensor.cat([Tensor(a), Tensor(b)], dim=np.True_)


def test_split_chunk() -> None:
    x = sample("int64", (7, 4))
    t = Tensor(x)
    for got, ref in zip(t.split(3), [x[0:3], x[3:6], x[6:7]]):
        assert_close(got, ref)
    for got, ref in zip(t.split([2, 5]), np.split(x, [2])):
        assert_close(got, ref)
    for got, ref in zip(t.split(3, dim=1), [x[:, :3], x[:, 3:]]):
        assert_close(got, ref)
    chunks = t.chunk(3)
    assert [c.shape for c in chunks] == [(3, 4), (3, 4), (1, 4)]
    assert_close(chunks[2], x[6:])
    assert [c.shape for c in t.chunk(2, dim=-1)] == [(7, 2), (7, 2)]
    with pytest.raises(ValueError):
        t.split([2, 2])


def test_repeat() -> None:
    x = sample("float32", (2, 3))
    t = Tensor(x)
    for reps in [(2, 1), (1, 3), (2, 2), (3, 1, 2)]:
        assert_close(t.repeat(*reps), np.tile(x, reps))
        assert_close(t.repeat(reps), np.tile(x, reps))
    assert_close(t.repeat(0, 1), np.tile(x, (0, 1)))


# ---- __getitem__ ----

BASIC = [
    (1,),
    (-1,),
    (slice(None),),
    (slice(1, None),),
    (slice(None, None, -1),),
    (slice(None, None, 2),),
    (slice(-2, None, -1),),
    (slice(10, -10, -1),),
    (slice(5, 1),),
    (0, 1),
    (0, -1, 2),
    (1, slice(None, None, -1)),
    (Ellipsis,),
    (Ellipsis, 1),
    (0, Ellipsis),
    (None,),
    (None, 0, None),
    (slice(None), None, Ellipsis, None),
    (Ellipsis, None),
    (slice(None, None, -2), slice(1, 3), slice(None, None, 3)),
    (slice(0, 0),),
    (True,),
    (False,),
    (Ellipsis, slice(None, None, -3)),
]


def test_getitem_basic() -> None:
    t = Tensor(A)
    for idx in BASIC:
        assert_close(t[idx], A[idx], msg=f"index {idx}")
    assert_close(t[1], A[1])
    assert_close(t[np.int64(1), np.int32(-1)], A[1, -1])
    assert_close(Tensor(np.float32(3))[()], np.float32(3)[()])
    assert_close(Tensor(np.float32(3))[None], np.float32(3)[None])
    assert_close(Tensor(np.float32(3))[...], np.float32(3)[...])


ADVANCED = [
    (slice(None), [2, 0, -1]),
    (np.array([[0, 1], [1, 0]]),),
    (slice(None), [0, 2]),
    (Ellipsis, [3, 0, 1]),
    ([1, 0], [2, 1]),
    ([1, 0], slice(None), [3, 1]),
    (0, slice(None), [1, 2]),
    (slice(None), 0, [1, 2]),
    ([0, 1], slice(None), 0),
    (None, [0, 1], 0),
    ([[1], [0]], [0, 2]),
    (slice(1, None), [[0], [2]], [1, 3]),
    ([],),
    (Ellipsis, None, [0, 1]),
    (np.array(1), slice(None), np.array([0, 2])),
    ([0, 1], 1, slice(None, None, -1)),
    ([-2, 1],),
    (slice(None), [True, False, True]),
    ([True, False],),
    (np.array([[True, False, True], [False, False, True]]),),
]


def test_getitem_advanced() -> None:
    t = Tensor(A)
    for idx in ADVANCED:
        assert_close(t[idx], A[idx], msg=f"index {idx}")
    assert_close(t[Tensor(np.array([1, 0]))], A[[1, 0]])
    assert_close(t[:, Tensor(np.array([2, 0], np.int32))], A[:, [2, 0]])
    assert_close(t[Tensor(np.array(1))], A[np.array(1)])
    mask = A > 0
    assert_close(t[Tensor(mask)], A[mask])
    assert_close(t[t > 0], A[A > 0])
    assert_close(t[0][Tensor(mask[0])], A[0][mask[0]])
    assert_close(t[mask[:, :, 0], 1:], A[mask[:, :, 0], 1:])
    i = Tensor(INTS)
    assert_close(i[i > 3], INTS[INTS > 3])
    assert_close(i.T[[0, 4]], INTS.T[[0, 4]])
    assert_close(i[::-1][[2, 0], ::2], INTS[::-1][[2, 0], ::2])


def test_getitem_on_noncontiguous_and_computed() -> None:
    t = Tensor(A)
    assert_close(t.T[1:, ::-2], A.T[1:, ::-2])
    assert_close((t * 2)[:, 1], (A * 2)[:, 1])
    assert_close((t + 1)[[1, 0], :, [0, 3]], (A + 1)[[1, 0], :, [0, 3]])
    assert_close(t.permute(2, 0, 1)[..., ::-1][1], A.transpose(2, 0, 1)[..., ::-1][1])


def test_getitem_errors() -> None:
    t = Tensor(A)
    for idx in [(2,), (0, 3), (0, 0, -5), ([0, 2],), (slice(None), [0, -4]), (Ellipsis, np.array([[4]]))]:
        with pytest.raises(IndexError):
            A[idx]
        with pytest.raises(IndexError, match="out of bounds"):
            t[idx]
    for idx in [
        (0, 0, 0, 0),
        (Ellipsis, Ellipsis),
        ("a",),
        (1.5,),
        ([0.5],),
        (np.array([True, False, True]),),
        ([0, 1], [0, 1, 2]),
        (np.array([True]),),
        (slice(None), Tensor(np.array([True, False]))),
    ]:
        with pytest.raises(IndexError):
            A[idx]
        with pytest.raises(IndexError):
            t[idx]
    with pytest.raises(ValueError):
        t[::0]
    with pytest.raises(ValueError):
        A[::0]
