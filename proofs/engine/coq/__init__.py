"""Coq: the hand-written headline development and the links generated from the SymPy chains."""
