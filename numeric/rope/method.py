"""What a RoPE scaling method is: the class each file of numeric/rope/methods subclasses.

A method holds everything about itself: the configuration keys it reads and their ranges
(read), its frequencies as transformers computes them (frequencies) and its attention factor
(attention), its exact reference in mpmath (exact), how the audit recognises it in a cache
(from_config, from_cache, named, read_off), and the sentences its findings say (assumed,
config_finding, attention_finding). Everything but read and frequencies has a default that
suits a method which scales no attention and has nothing of its own to say.

Scaling and CacheFit are the audit's data a method reads and returns: plain data, so a method
file depends on numeric.rope only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath
import numpy as np

from numeric.rope.parameters import BASE, Reading
from numeric.rope.round_numbers import round_candidates


@dataclass(frozen=True)
class Scaling:
    """A method identified in a cache. type: a method's name, or "custom"; base: b (the
    configuration's rope_theta); parameters: the method's parameters by their Hugging Face
    names (plus what the cache fixes: yarn's "ramp", Llama 3's wavelengths, dynamic's
    "seq_len", ntk's scaled "base"); theta: the model's frequencies in float64; rounded_to:
    the 16-bit format the frequencies were rounded to, or None; assumed: parameters the cache
    does not fix, set to a default; misfit: the largest |θ − model| in units of its bound;
    source: "config" when the configuration's own method and parameters agree with the cache,
    "cache" when read from the cache alone."""

    type: str
    base: float | None
    parameters: dict = field(default_factory=dict)
    theta: np.ndarray | None = None
    rounded_to: str | None = None
    assumed: tuple[str, ...] = ()
    misfit: float = math.inf
    source: str = "cache"

    def to_json(self) -> dict:
        """{"type": ..., parameters...}: the scaling field of the audit's JSON."""
        return {"type": self.type, **self.parameters}


def _bases(given: tuple[float, ...], near: list[float]) -> list[float]:
    """The configuration's bases, then the round ones near the fit that a base may be."""
    return list(given) + [b for b in near if BASE.holds(b)]


@dataclass(frozen=True)
class CacheFit:
    """The fitted frequencies the audit hands each method. theta, bound: per pair, the fitted
    θ and how far the true one can be; d: the rotary width; bases: the configuration's base
    (empty without one); intercept, slope: ln θ_0 and ln ratio of the weighted geometric fit
    over every pair; head: the base of the longest run of leading pairs geometric from 1."""

    theta: np.ndarray
    bound: np.ndarray
    d: int
    bases: tuple[float, ...]
    intercept: float
    slope: float
    head: float | None

    @property
    def fitted(self) -> float | None:
        """The base of the geometric fit, when the frequencies fall, and within BASE."""
        power = -self.slope * self.d / 2
        if not 0 < power <= math.log(BASE.high):
            return None
        return math.exp(power)

    @property
    def geometric_bases(self) -> list[float]:
        """The bases to try for a geometric method: the configuration's, then round numbers
        near the fitted base."""
        fitted = self.fitted
        return _bases(self.bases, round_candidates(fitted) if fitted else [])

    @property
    def head_bases(self) -> list[float]:
        """The bases to try for a method that keeps the fast pairs: the configuration's, then
        round numbers near the head's base."""
        return _bases(self.bases, round_candidates(self.head) if self.head else [])


class ScalingMethod:
    """One scaling method. A subclass sets the class attributes and overrides read and
    frequencies (and whatever else it does differently); its file's METHOD is an instance.

    name: the name the audit reports (transformers' rope_type, except "none" for the default
    and "ntk" for NTK-aware, which no rope_type computes); rope_type: what a configuration
    writes, None when it cannot; label: the method in a sentence ("Llama 3 scaling"); short:
    in a list ("Llama 3"); order: when the audit tries it (smaller first); keys: the Hugging
    Face keys it reads, as RopeConfig holds them; needs_config: why the cache alone cannot
    identify it, in a clause ("a LongRoPE rescale vector fits any base"), "" when it can;
    attention_verdicts: an
    attention factor of 1 or of the expected one squared is named "dropped" or "applied
    twice" (YaRN's known bugs) rather than "unexpected"; bugs: the bug classes its own
    findings name (config_finding, attention_finding), the likeliest explanation first.
    """

    name: str = ""
    rope_type: str | None = None
    label: str = ""
    short: str = ""
    order: int = 0
    keys: tuple[str, ...] = ()
    needs_config: str = ""
    attention_verdicts: bool = False
    bugs: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<scaling method {self.name}>"

    # Configuration and frequencies.
    def read(self, reading: Reading) -> dict[str, object]:
        """The method's keys, each checked against its range: RopeConfig's fields by name."""
        return {}

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        """θ′_i for the config's rotary pairs at sequence length seq_len."""
        raise NotImplementedError(f"{self.name} has no frequencies")

    def attention(self, config) -> tuple[float, str]:
        """(m, the rule in words): the number cos and sin are multiplied by."""
        return 1.0, f"{config.scaling} scaling, which scales nothing"

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        """θ′_i as an mpmath number at 50 digits, written apart from frequencies."""
        raise NotImplementedError(f"{self.name} has no exact reference")

    def property_rows(self, at) -> list[list]:
        """This method's rows of the rope_scaling twin: each property its source states,
        measured on the grid of numeric.rope.properties (at: its Sampling of positions)."""
        return []

    def claims(self) -> list:
        """The numbers published about this method (numeric.rope.claims.Claim), recomputed."""
        return []

    def figure_curves(
        self, dim: int, base: float, factor: float, original: int
    ) -> list[tuple[str, np.ndarray]]:
        """(label, θ′_i) for the figure comparing the methods at scaling factor `factor` and
        original length `original` (numeric.plots.rope_scaling); [] to stay out of it."""
        return []

    # The audit.
    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        """The configuration's own frequencies (and what its known bugs give), source "config"."""
        return []

    def from_cache(self, fit: CacheFit) -> list[Scaling]:
        """Candidates read from the fitted frequencies alone."""
        return []

    def named(self, found: Scaling, d: int) -> Scaling:
        """found, read from the cache alone, with what the cache leaves open named."""
        return found

    def read_off(self, fit: CacheFit, config) -> Scaling | None:
        """The parameters read off the cache with the configuration's base, when no
        candidate agreed and the configuration names this method."""
        return None

    def cache_attention(self, found: Scaling) -> tuple[float, str] | None:
        """(m, rule) expected without a configuration; None when the cache cannot say."""
        return 1.0, f"{found.type} scaling, which scales nothing"

    def assumed(self, found: Scaling) -> str | None:
        """The sentence saying which parameters the cache does not fix, if any were assumed."""
        return None

    def config_finding(
        self, found: Scaling, config, pair: int, ratio: float, seq_len: int, where: str
    ) -> tuple[str, str] | None:
        """(bug class, sentence) for a cache whose frequencies differ from this method's
        configuration at `pair` (where: "pair 29 turns 20.7% faster than the config's"), when
        the method knows the bug; None for the general mismatch."""
        return None

    def attention_finding(
        self, verdict: str, value: float, expected: float, rule: str
    ) -> tuple[str, str] | None:
        """(bug class, sentence) for an attention factor "dropped" or "applied twice"; None
        when the method has no such verdicts."""
        return None
