"""numeric.audit: identify a positional-encoding table from any implementation, and measure it.

load_table reads a file; audit fits the table's columns, names the convention and measures the
table against its exact version; compare says whether two tables encode the same positions.
"""

from numeric.audit.compare import compare
from numeric.audit.identify import audit
from numeric.audit.load import load_table
from numeric.audit.result import Audit, Comparison

__all__ = ["Audit", "Comparison", "audit", "compare", "load_table"]
