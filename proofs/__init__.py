"""pe-proofs: symbolic proofs of the sinusoidal positional encoding's properties.

Start with `prove_identity(lhs, rhs)` for a claim of your own, or `pe-proofs` on the command line.
"""

from proofs.derivation import Derivation, Step, Verdict, prove_identity

__all__ = ["Derivation", "Step", "Verdict", "prove_identity"]
