"""How a model's code pairs the components of a cache with one column per pair, by model_type.

A cache laid out "freqs" (one cos and one sin column per pair) does not say how the code that
applies it pairs components: transformers' gpt-oss rotates the halves (i, i + d/2) with it,
its openai_privacy_filter and DeepSeek-V2 and Llama 4 the neighbours (2i, 2i + 1). So the audit
names no pairing for such a cache unless the caller states it, the config's rope_interleave
does, or the config's model_type is one whose code is listed here (read from transformers
5.25.0's source, the function that applies the cache):
- gpt_oss: modeling_gpt_oss._apply_rotary_emb, torch.chunk(x, 2): halves;
- openai_privacy_filter: modeling_openai_privacy_filter._apply_rotary_emb, x[..., ::2] and
  x[..., 1::2]: neighbours;
- deepseek_v2, llama4, llama4_text: apply_rotary_emb, torch.view_as_complex over pairs of
  neighbours (the complex freqs_cis).

>>> freqs_pairing("gpt_oss"), freqs_pairing("deepseek_v2"), freqs_pairing("llama")
('rotate_half', 'interleaved', None)
"""

from __future__ import annotations

_PAIRING = {
    "gpt_oss": "rotate_half",
    "openai_privacy_filter": "interleaved",
    "deepseek_v2": "interleaved",
    "llama4": "interleaved",
    "llama4_text": "interleaved",
}


def freqs_pairing(model_type: object) -> str | None:
    """The pairing the code of model_type applies a one-column-per-pair cache with, or None
    when it is not listed (the cache alone cannot say)."""
    return _PAIRING.get(model_type) if isinstance(model_type, str) else None
