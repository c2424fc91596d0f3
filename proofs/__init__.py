"""pe-proofs: symbolic proofs of the sinusoidal positional encoding's properties.

Start with `prove_identity(lhs, rhs)` for a claim of your own, or `pe-proofs` on the command line.
"""

from proofs.derivation import Derivation, Step, Verdict, prove_identity
from proofs.shift_map import ShiftMap, find_shift_map

__all__ = ["Derivation", "ShiftMap", "Step", "Verdict", "find_shift_map", "prove_identity"]
