"""The names of the course module's printed tables, in the module's order.

numeric.module_tables computes them; the names live apart, without NumPy, so the command
line's --help can list them at once.
"""

TABLE_NAMES: tuple[str, ...] = (
    "pe_rows",
    "bounds",
    "unique",
    "rotation",
    "exercise_1",
    "exercise_2",
    "exercise_3",
)
