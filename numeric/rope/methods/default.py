"""No scaling: θ_i = b^(−2i/d) (transformers' rope_type "default"; the audit calls it "none").

Keys: none of its own (rope_theta, head_dim and partial_rotary_factor are every method's).
Recognised in a cache as geometric from θ_0 = 1 with a round base.

>>> from numeric.rope import rope_config
>>> METHOD.frequencies(rope_config({"head_dim": 4}), None, "float64").tolist()
[1.0, 0.01]
"""

from __future__ import annotations

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.scaling import default_frequencies


class Default(ScalingMethod):
    name = "none"
    rope_type = "default"
    # Qwen2-VL's configs say "mrope": transformers reads it as the default frequencies, each
    # pair's position chosen by mrope_section (Qwen2VLConfig.__init__).
    rope_type_aliases = ("mrope",)
    label = "no scaling"
    short = "none"
    order = 0

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        return default_frequencies(config.rotary_dim, config.base, arithmetic=arithmetic)

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        return exact.theta(i, config.rotary_dim, config.base)

    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        d, b = config.rotary_dim, config.base
        return [Scaling(self.name, b, {}, default_frequencies(d, b), source="config")]

    def from_cache(self, fit: CacheFit) -> list[Scaling]:
        return [
            Scaling(self.name, b, {}, default_frequencies(fit.d, b)) for b in fit.geometric_bases
        ]


METHOD = Default()
