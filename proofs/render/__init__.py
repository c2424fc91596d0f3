"""Printers: independent backends over one Derivation/TheoremResult (text, latex, markdown)."""
