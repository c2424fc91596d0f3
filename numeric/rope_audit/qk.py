"""compare_qk: whether B's q/k projection weights are A's with the per-head RoPE permutation.

Converting a model between the interleaved and the rotate_half layout permutes the rows of W_q
within each of n_heads heads and the rows of W_k within each of n_kv_heads heads
(numeric.rope.permute). Each of B's matrices is compared with A's as it stands, permuted
(interleaved → rotate_half), unpermuted (rotate_half → interleaved), and, for K under
grouped-query attention, permuted with n_heads instead of n_kv_heads: the mistake of a
conversion that treats K like Q (llama.cpp #2376, TinyLlama #24). Equality is exact, or within
one bfloat16 rounding when the weights were rounded in between (the conversion script reloads
in bfloat16).

>>> import numpy as np
>>> from numeric.rope import convert_qk
>>> q, k = np.arange(64.0).reshape(8, 8), np.arange(32.0).reshape(4, 8)
>>> compare_qk((q, k), convert_qk(q, k, n_heads=2, n_kv_heads=1), n_heads=2, n_kv_heads=1).relation
'permuted'
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from numbers import Integral

import numpy as np

from numeric.audit.quiet import quiet
from numeric.audit.report import bullets, plain
from numeric.rope import permute_heads, unpermute_heads

_BF16_RELATIVE = 2.0**-8


@dataclass(frozen=True)
class QKComparison:
    """relation: "same", "permuted" (B = A converted interleaved → rotate_half), "unpermuted"
    (rotate_half → interleaved), or "different"; q, k: each matrix's own relation ("k_with_n_heads"
    when K was permuted with n_heads); exact: equality without rounding; findings."""

    relation: str
    q: str
    k: str
    exact: bool
    findings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.relation != "different"

    def to_json(self) -> dict:
        return plain(asdict(self))

    def report_lines(self, width: int = 100) -> list[str]:
        return textwrap.wrap(f"q/k weights: {self.relation} (Q {self.q}, K {self.k})", width) + (
            bullets(self.findings, width)
        )


def _pair(weights: object, name: str) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(weights, Mapping):
        keys = {k.lower(): k for k in weights}
        q = next((weights[keys[k]] for k in ("q", "wq", "w_q", "q_proj") if k in keys), None)
        k = next((weights[keys[k]] for k in ("k", "wk", "w_k", "k_proj") if k in keys), None)
        if q is None or k is None:
            raise ValueError(f"{name} must hold a 'q' and a 'k' matrix, got keys {sorted(weights)}")
        weights = (q, k)
    if not isinstance(weights, tuple | list) or len(weights) != 2:
        raise ValueError(f"{name} must be (W_q, W_k) or {{'q': W_q, 'k': W_k}}")
    out = []
    for w, which in zip(weights, ("W_q", "W_k"), strict=True):
        array = np.asarray(w)
        if array.dtype.kind not in "fiu" or array.ndim not in (1, 2) or array.size == 0:
            raise ValueError(
                f"{name}'s {which} must be a non-empty 1-D or 2-D array of numbers, got "
                f"{array.dtype} {array.shape}"
            )
        out.append(array.astype(np.float64))
    return out[0], out[1]


def _equal(a: np.ndarray, b: np.ndarray) -> str | None:
    """ "exact", "bfloat16" (within one bfloat16 rounding) or None."""
    if a.shape != b.shape:
        return None
    if np.array_equal(a, b):
        return "exact"
    if np.all(np.abs(a - b) <= _BF16_RELATIVE * np.maximum(np.abs(a), np.abs(b))):
        return "bfloat16"
    return None


_MOVES = {"permuted": permute_heads, "unpermuted": unpermute_heads}


def _moved(a: np.ndarray, name: str, heads: int) -> np.ndarray | None:
    if name == "same":
        return a
    if a.shape[0] % (2 * heads):
        return None
    return _MOVES[name](a, heads)


def _relation(a: np.ndarray, b: np.ndarray, heads: int) -> tuple[str, str | None]:
    """(relation, how equal) of B to A for a matrix of `heads` heads."""
    for name in ("same", "permuted", "unpermuted"):
        candidate = _moved(a, name, heads)
        how = None if candidate is None else _equal(candidate, b)
        if how:
            return name, how
    return "different", None


def _key_relation(
    a: np.ndarray, b: np.ndarray, q: str, n_heads: int, n_kv: int
) -> tuple[str, str | None]:
    """K's relation, Q's own tried first: with n_kv_heads (right), then n_heads (the mistake)."""
    if q in _MOVES:
        right = _moved(a, q, n_kv)
        how = None if right is None else _equal(right, b)
        if how:
            return q, how
        if n_heads != n_kv:
            wrong = _moved(a, q, n_heads)
            how = None if wrong is None else _equal(wrong, b)
            if how:
                return f"{q}_with_n_heads", how
    return _relation(a, b, n_kv)


def _count(value: object, name: str) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


@quiet
def compare_qk(
    w_a: object, w_b: object, *, n_heads: int, n_kv_heads: int | None = None
) -> QKComparison:
    """Whether B's (W_q, W_k) are A's with the rotate_half ↔ interleaved permutation per head.

    w_a, w_b: (W_q, W_k) pairs or dicts with "q" and "k" (rows = heads × head_dim); n_heads:
    query heads; n_kv_heads: key/value heads (default n_heads).
    """
    n_heads = _count(n_heads, "n_heads")
    n_kv = n_heads if n_kv_heads is None else _count(n_kv_heads, "n_kv_heads")
    if n_heads % n_kv:
        raise ValueError(f"n_kv_heads ({n_kv}) must divide n_heads ({n_heads})")
    qa, ka = _pair(w_a, "w_a")
    qb, kb = _pair(w_b, "w_b")
    for a, b, which in ((qa, qb, "W_q"), (ka, kb, "W_k")):
        if a.shape != b.shape:
            raise ValueError(f"A's and B's {which} differ in shape: {a.shape} and {b.shape}")
    q, q_how = _relation(qa, qb, n_heads)
    k, k_how = _key_relation(ka, kb, q, n_heads, n_kv)
    findings = []
    relation = q if q == k and q != "different" else "different"
    exact = q_how == "exact" and k_how == "exact"
    if relation != "different":
        words = {
            "same": "B's q/k weights are A's as they stand (the same convention)",
            "permuted": "B is A converted from interleaved to rotate_half: W_q permuted per head "
            f"with n_heads = {n_heads}, W_k with n_kv_heads = {n_kv}",
            "unpermuted": "B is A converted from rotate_half to interleaved: W_q unpermuted per "
            f"head with n_heads = {n_heads}, W_k with n_kv_heads = {n_kv}",
        }
        findings.append(
            words[relation] + ("" if exact else " (equal within one bfloat16 rounding)")
        )
    elif k.endswith("_with_n_heads") and q in ("permuted", "unpermuted"):
        same = " (which leaves this W_k unchanged)" if np.array_equal(ka, kb) else ""
        findings.append(
            f"W_k was {k.split('_')[0]} with n_heads = {n_heads} instead of n_kv_heads = {n_kv}"
            f"{same}: each of its {n_kv} key heads was cut into {n_heads // n_kv} pieces and "
            "permuted within them, so keys pair the wrong components (the conversion mistake of "
            "llama.cpp #2376 and TinyLlama #24)"
        )
    else:
        findings.append(f"B is not A with a per-head RoPE permutation: W_q is {q}, W_k is {k}")
    return QKComparison(relation, q, k, exact, tuple(findings))
