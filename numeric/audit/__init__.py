"""numeric.audit: what the sinusoidal audit (numeric.table_audit) and the RoPE audit
(numeric.rope_audit) share.

Reading files (load: .npy, .npz, .csv/.txt, .safetensors, each array read once, a block of rows
at a time: rows; regular_file, limits), the typed input errors every reader raises (errors: only
those are the user's mistake), the precision grade (grading: each entry held to its own pair's
cap at its own position; precision: which format values carry), and the typed Finding.
"""
