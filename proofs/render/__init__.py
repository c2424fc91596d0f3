"""Printers: independent backends over one Derivation/TheoremRun (text, latex, markdown)."""
