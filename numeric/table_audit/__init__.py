"""numeric.table_audit: identify a positional-encoding table from any implementation, and measure it.

load_table reads a file; audit fits the table's columns, names the convention and measures the
table against its exact version; compare says whether two tables encode the same positions.
"""

from numeric.table_audit.compare import compare
from numeric.table_audit.identify import audit
from numeric.table_audit.load import load_table
from numeric.table_audit.result import Audit, Comparison

__all__ = ["Audit", "Comparison", "audit", "compare", "load_table"]
