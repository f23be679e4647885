"""Benchmarks of lazyarr fused, lazyarr unfused (FUSE=0) and peer libraries on the same workloads, side by side.

Run `python -m lazyarr.bench --help`. `workloads` defines what is computed, `runner` times it and checks results
against NumPy, `report` prints the table and draws the chart, `first_call` times compilation in fresh processes.
"""
