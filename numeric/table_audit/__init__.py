"""numeric.table_audit: identify a positional-encoding table from any implementation, and measure it.

open_table opens a file's rows to be read a block at a time (load_table reads it into an array);
audit fits the table's columns, names the convention, measures the table against its exact
version and gives three verdicts (structure, convention, accuracy); compare says whether two
tables encode the same positions.
"""

from numeric.audit.load import load_table, open_table
from numeric.table_audit.compare import compare
from numeric.table_audit.identify import audit
from numeric.table_audit.result import Audit, Comparison

__all__ = ["Audit", "Comparison", "audit", "compare", "load_table", "open_table"]
