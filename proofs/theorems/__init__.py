"""The theorems, one package per course module: sinusoidal (module 10) and rope (module 11).

Each theorem is one module that states it and proves it, part by part; `python -m` runs any of
them as a standalone proof script, and proofs.registry lists them by course module.
"""
