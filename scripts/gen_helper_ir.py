"""Regenerate lazyarr/kernels/helper_ir/ (the transcendental functions' LLVM IR for kernels compiled without Numba)
after changing lazyarr/kernels/transcendental.py or numba_support.py: `python scripts/gen_helper_ir.py`."""

from lazyarr.kernels import helper_ir

if __name__ == "__main__":
    helper_ir.generate()
    print(f"wrote {len(helper_ir.FUNCTIONS)} helper modules and the manifest to {helper_ir.DIR}")
