"""Installs lazyarr (`pip install -e .`; extras: test, cuda, examples, bench, blas). Tool config is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    name="lazyarr",
    version="0.1.0",
    description="Lazy, fusing, JIT-compiling arrays for PyTorch-style and NumPy code (Numba on CPU, CUDA C on GPU)",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    packages=find_packages(include=["lazyarr", "lazyarr.*"]),
    package_data={"lazyarr.kernels": ["helper_ir/*.ll", "helper_ir/manifest.json"]},
    python_requires=">=3.10",
    install_requires=["numpy>=1.26", "numba>=0.60", "threadpoolctl>=3.1"],
    extras_require={
        "test": ["pytest>=8", "hypothesis>=6.100", "pytest-benchmark>=4", "pytest-timeout>=2.3", "pytest-xdist>=3.5",
                 "nvidia-cuda-nvrtc-cu12==12.9.86", "safetensors>=0.4", "ruff>=0.5", "scipy>=1.10"],
        "blas": ["scipy>=1.10"],
        "cuda": ["cupy-cuda12x>=13"],
        "examples": ["scikit-learn>=1.3", "tqdm>=4.60", "scipy>=1.10"],
        "bench": ["pytest-benchmark>=4", "matplotlib>=3.7", "numexpr>=2.8", "scipy>=1.10"],
    },
)
