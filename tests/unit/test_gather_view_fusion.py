"""A gather whose result is viewed (permuted) before an elementwise consumer: the view must not be lost in fusion
(it used to index the gather at its own shape and read the index buffer out of bounds)."""

import numpy as np

from lazyarr import Tensor
from tests.helpers import assert_matches


def test_permuted_gather_fused_into_elementwise() -> None:
    x = np.arange(240, dtype=np.float32).reshape(6, 40)
    idx = np.array([[3, 0], [1, 5]])
    assert_matches(Tensor(x)[:, Tensor(idx[0])] * 2, x[:, idx[0]] * 2)
    assert_matches(Tensor(x)[:, Tensor(idx)] + 1, x[:, idx] + 1)
