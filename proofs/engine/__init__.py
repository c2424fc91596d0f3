"""What checks a claim: derivations and verdicts, facts, the symbolic and numeric checks, sampling,
linear systems, the shift-map decision procedure, and the safe expression parser.

Nothing here imports a printer, the command line or a theorem module."""
