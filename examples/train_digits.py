"""Train an MLP or a small CNN on scikit-learn's handwritten digits (1797 8x8 images, bundled: no download).

    python examples/train_digits.py                 # MLP, training step captured with @lazyarr.jit
    python examples/train_digits.py --model cnn     # two conv layers
    python examples/train_digits.py --no-jit        # the same training, run eagerly

The training step is ordinary eager code (forward, `loss.backward()`, `opt.step()`); `@lazyarr.jit` runs it normally
once, captures its kernels on the second call and replays them on every later batch. The last line reports test
accuracy, steps per second, kernels per step and the time to the first step (compiling included; compiled kernels are
cached on disk, so a second run starts faster).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from lazyarr.nn import functional as F
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from tqdm import tqdm

import lazyarr
from lazyarr import Tensor, nn


def load(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Train/test split (80/20, stratified) of the digits, standardised with the training set's statistics."""
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    x_train, x_test, y_train, y_test = train_test_split(x, digits.target.astype(np.int32), test_size=0.2,
                                                        random_state=seed, stratify=digits.target)
    mean, std = x_train.mean(axis=0), x_train.std(axis=0) + 0.1  # some pixels are always 0
    return (x_train - mean) / std, (x_test - mean) / std, y_train, y_test


def make_model(kind: str) -> nn.Module:
    if kind == "mlp":
        return nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10))
    return nn.Sequential(  # 1x8x8 -> 16x4x4 -> 32x2x2 -> 10
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(128, 10))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="CPU", help="CPU or CUDA")
    parser.add_argument("--no-jit", action="store_true", help="run the training step eagerly")
    args = parser.parse_args()

    try:
        lazyarr.Tensor([0.0], device=args.device)
    except (RuntimeError, ValueError) as e:  # an unknown device, or CUDA without CuPy or a GPU: say which
        raise SystemExit(f"--device {args.device}: {e}") from e
    with lazyarr.Context(DEVICE=args.device):
        train(args)


def train(args: argparse.Namespace) -> None:
    x_train, x_test, y_train, y_test = load(args.seed)
    shape = (-1, 64) if args.model == "mlp" else (-1, 1, 8, 8)
    Tensor.manual_seed(args.seed)
    model = make_model(args.model)
    opt = lazyarr.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)

    def step(x: Tensor, y: Tensor) -> Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    def evaluate(x: Tensor) -> Tensor:
        with lazyarr.no_grad():
            return model(x).argmax(axis=1)

    if not args.no_jit:
        step = lazyarr.jit(step)  # type: ignore[assignment]
        evaluate = lazyarr.jit(evaluate)  # type: ignore[assignment]

    rng = np.random.default_rng(args.seed)
    n_steps = len(x_train) // args.batch_size  # every step has the same batch shape: one capture serves all
    test_x = Tensor(x_test.reshape(shape)).realize()
    train_x = Tensor(x_train.reshape(shape)).realize()
    start = time.perf_counter()
    first_step = kernels_per_step = 0.0
    timed_steps, timed = 0, 0.0
    accuracy = 0.0
    for epoch in range(args.epochs):
        order = rng.permutation(len(x_train))
        losses: list[Tensor] = []  # each step returns its own loss tensor: later steps do not overwrite it
        epoch_start = time.perf_counter()
        bar = tqdm(range(n_steps), desc=f"epoch {epoch + 1:>2}/{args.epochs}", leave=False, unit="step")
        for i in bar:
            idx = order[i * args.batch_size:(i + 1) * args.batch_size]
            x, y = Tensor(x_train[idx].reshape(shape)), Tensor(y_train[idx])
            before = lazyarr.stats().kernels_launched
            losses.append(step(x, y))
            if epoch == 0 and i == 0:
                losses[-1].numpy()
                first_step = time.perf_counter() - start
            if epoch == 0 and i == 3:
                kernels_per_step = lazyarr.stats().kernels_launched - before
        mean_loss = np.mean([loss.item() for loss in losses])
        if epoch > 0:  # epoch 1 includes compiling and capturing
            timed_steps += n_steps
            timed += time.perf_counter() - epoch_start
        train_accuracy = float((evaluate(train_x).numpy() == y_train).mean())
        accuracy = float((evaluate(test_x).numpy() == y_test).mean())
        tqdm.write(f"epoch {epoch + 1:>2}: loss {mean_loss:.4f}  train accuracy {train_accuracy:.2%}  "
                   f"test accuracy {accuracy:.2%}")
    total = time.perf_counter() - start
    rate = timed_steps / timed if timed else float("nan")
    mode = "eager" if args.no_jit else "jit"
    print(f"{args.model} ({mode}, {args.device}): test accuracy {accuracy:.2%} | {rate:.0f} steps/s | "
          f"{kernels_per_step:.0f} kernels/step | first step {first_step:.2f} s | total {total:.1f} s")


if __name__ == "__main__":
    main()
