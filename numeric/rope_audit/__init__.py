"""numeric.rope_audit: identify a RoPE implementation from what it produced, by fitting.

audit_rope reads a cos/sin cache, audit_rope_function probes a black-box apply_rope; both
name the convention, rotary width, base, scaling method and its parameters, attention factor,
offset and precision, check them against a configuration when one is given, and name every
fault with its bug class. compare_rope says where two caches part and why; compare_qk whether
two sets of q/k weights are one conversion apart.
"""

from numeric.rope_audit.compare import RopeComparison, compare_rope
from numeric.rope_audit.function import audit_rope_function
from numeric.rope_audit.identify import audit_rope
from numeric.rope_audit.qk import QKComparison, compare_qk
from numeric.rope_audit.result import RopeAudit

__all__ = [
    "QKComparison",
    "RopeAudit",
    "RopeComparison",
    "audit_rope",
    "audit_rope_function",
    "compare_qk",
    "compare_rope",
]
