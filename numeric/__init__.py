"""numeric: NumPy tables of the sinusoidal positional encoding, its mpmath reference, and the
numeric cross-checks of every identity. The ground floor: never imports sympy or proofs.

Tables, the reference, the module's own formula and the precision report sit at the top;
numeric.checks holds one twin per theorem, numeric.plots the figures, numeric.table_audit
identifies and measures a table from any implementation (audit, compare, load_table),
numeric.rope holds rotary embeddings: configs, scaling methods, caches, layouts, and
numeric.rope_audit identifies a RoPE cache or function (audit_rope, audit_rope_function,
compare_rope, compare_qk), both on numeric.audit (file readers, typed input errors, the precision
grade, Finding, the report's pieces); numeric.testing has assert_rope_matches for engine tests.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numeric.checks import (
        bounds_table,
        ramp_range_table,
        ramp_table,
        rotation_check,
        rotation_table,
        unique_rows,
        unique_rows_table,
    )
    from numeric.linear_shift import best_linear_shift
    from numeric.module import module_formula_rows, module_sinusoidal_pe
    from numeric.reference import max_abs_error, max_deviation, reference_pe, table_error
    from numeric.result_table import Table
    from numeric.rope import (
        RopeConfig,
        apply_rope,
        convert_qk,
        permute_heads,
        rope_cache,
        rope_config,
        rope_frequencies,
        rope_function,
        unpermute_heads,
    )
    from numeric.rope_audit import (
        QKComparison,
        RopeAudit,
        RopeComparison,
        audit_rope,
        audit_rope_function,
        compare_qk,
        compare_rope,
    )
    from numeric.table_audit import Audit, Comparison, audit, compare, load_table
    from numeric.tables import (
        accuracy_bound,
        frequencies,
        ramp_encoding,
        raw_index_encoding,
        sinusoidal_pe,
    )

# The exports load on first use: `import numeric` costs nothing until a name is used, so the
# command line's --help and --version start without NumPy.
_EXPORTS = {
    "Audit": "numeric.table_audit",
    "Comparison": "numeric.table_audit",
    "QKComparison": "numeric.rope_audit",
    "RopeAudit": "numeric.rope_audit",
    "RopeComparison": "numeric.rope_audit",
    "RopeConfig": "numeric.rope",
    "Table": "numeric.result_table",
    "accuracy_bound": "numeric.tables",
    "apply_rope": "numeric.rope",
    "audit": "numeric.table_audit",
    "audit_rope": "numeric.rope_audit",
    "audit_rope_function": "numeric.rope_audit",
    "best_linear_shift": "numeric.linear_shift",
    "bounds_table": "numeric.checks",
    "compare": "numeric.table_audit",
    "compare_qk": "numeric.rope_audit",
    "compare_rope": "numeric.rope_audit",
    "convert_qk": "numeric.rope",
    "frequencies": "numeric.tables",
    "load_table": "numeric.table_audit",
    "max_abs_error": "numeric.reference",
    "max_deviation": "numeric.reference",
    "module_formula_rows": "numeric.module",
    "module_sinusoidal_pe": "numeric.module",
    "permute_heads": "numeric.rope",
    "ramp_encoding": "numeric.tables",
    "ramp_range_table": "numeric.checks",
    "ramp_table": "numeric.checks",
    "raw_index_encoding": "numeric.tables",
    "reference_pe": "numeric.reference",
    "rope_cache": "numeric.rope",
    "rope_config": "numeric.rope",
    "rope_frequencies": "numeric.rope",
    "rope_function": "numeric.rope",
    "rotation_check": "numeric.checks",
    "rotation_table": "numeric.checks",
    "sinusoidal_pe": "numeric.tables",
    "table_error": "numeric.reference",
    "unique_rows": "numeric.checks",
    "unique_rows_table": "numeric.checks",
    "unpermute_heads": "numeric.rope",
}

__all__ = [
    "Audit",
    "Comparison",
    "QKComparison",
    "RopeAudit",
    "RopeComparison",
    "RopeConfig",
    "Table",
    "accuracy_bound",
    "apply_rope",
    "audit",
    "audit_rope",
    "audit_rope_function",
    "best_linear_shift",
    "bounds_table",
    "compare",
    "compare_qk",
    "compare_rope",
    "convert_qk",
    "frequencies",
    "load_table",
    "max_abs_error",
    "max_deviation",
    "module_formula_rows",
    "module_sinusoidal_pe",
    "permute_heads",
    "ramp_encoding",
    "ramp_range_table",
    "ramp_table",
    "raw_index_encoding",
    "reference_pe",
    "rope_cache",
    "rope_config",
    "rope_frequencies",
    "rope_function",
    "rotation_check",
    "rotation_table",
    "sinusoidal_pe",
    "table_error",
    "unique_rows",
    "unique_rows_table",
    "unpermute_heads",
]


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'numeric' has no attribute {name!r}")
