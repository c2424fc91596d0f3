"""The theorems' numeric twins, one module per theorem of proofs/, named after it.

Each twin computes a table with NumPy and checks the theorem's identity on it at scale, against
a tolerance derived from the table's accuracy; each returns a numeric.result_table.Table with `passed`.
"""

from numeric.checks.bounded import bounds_and_norms_table, bounds_table, table_bounds
from numeric.checks.dot_product import dot_product_table
from numeric.checks.group import group_table
from numeric.checks.layouts import layout_table
from numeric.checks.ramp import ramp_range_table, ramp_table
from numeric.checks.rope import rope_table
from numeric.checks.rope_axial import rope_axial_table
from numeric.checks.rope_decay import rope_decay_table
from numeric.checks.rope_group import rope_group_table
from numeric.checks.rope_layouts import rope_layouts_table
from numeric.checks.rope_mrope import rope_mrope_table
from numeric.checks.rope_precision import rope_precision_table
from numeric.checks.rope_scaling import rope_scaling_table
from numeric.checks.rope_xpos import rope_xpos_table
from numeric.checks.rotation import rotation_check, rotation_table, rotation_tolerance
from numeric.checks.shift_maps import shift_fit_table
from numeric.checks.unique import nearest_rows_table, unique_rows, unique_rows_table

__all__ = [
    "bounds_and_norms_table",
    "bounds_table",
    "dot_product_table",
    "group_table",
    "layout_table",
    "nearest_rows_table",
    "ramp_range_table",
    "ramp_table",
    "rope_axial_table",
    "rope_decay_table",
    "rope_group_table",
    "rope_layouts_table",
    "rope_mrope_table",
    "rope_precision_table",
    "rope_scaling_table",
    "rope_table",
    "rope_xpos_table",
    "rotation_check",
    "rotation_table",
    "rotation_tolerance",
    "shift_fit_table",
    "table_bounds",
    "unique_rows",
    "unique_rows_table",
]
