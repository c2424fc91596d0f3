"""The audits' exit statuses: one per outcome (numeric.audit.outcome.Outcome), and the text
`pe-proofs audit --help` shows of them and of the offset rule."""

from __future__ import annotations

from numeric.audit.outcome import Outcome

EXIT_STATUS = {Outcome.SOUND: 0, Outcome.FAULT: 1, Outcome.UNDECIDED: 3}
EXIT_STATUSES = """exit status:
  0  sound: a clean table or a sound cache (with --against: the same encoding)
  1  fault: a fault, named with its bug class (with --against: two different encodings)
  3  undecided: the input cannot decide; the report says what would (such as --config)
  2  a file, config or option that cannot be read
offset rule: rows that hold positions shifted by a whole offset (row p holds p + 1) are
  harmless when q and k share the table or cache (every score depends on p - q alone), and a
  fault when the config (--config) or the caller (stated positions) says position 0 is the
  identity"""
