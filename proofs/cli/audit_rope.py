"""`pe-proofs audit` on RoPE caches: when a file is read as one, and that run.

The audit reads FILE as a RoPE cos/sin cache, not a sinusoidal table, when any of these holds:
- --rope is given;
- a RoPE option is given (--config, --layer-type, --layer, --convention, --positions-key);
- there are two files (cos, then sin), or two --key options (cos, then sin);
- FILE is an .npz or .safetensors file holding arrays named "cos" and "sin" and no --key is
  given.
Otherwise it is a sinusoidal table. Nothing is guessed from the values: a cos cache alone
looks like a table of cosines, so a single array is read as RoPE only when told.

Exit status (proofs.cli.audit_exit.EXIT_STATUS): 0 for a sound cache (and, with --against, for caches
holding the same rotations), 1 for a fault, 3 when the cache alone cannot decide (the report
names what would: the config), 2 for a file or config that cannot be read.
"""

from __future__ import annotations

import argparse
import shutil

from numeric.audit.outcome import Outcome
from proofs.cli.audit_exit import EXIT_STATUS
from proofs.cli.usage import UsageError, user_input
from proofs.render.json_text import dumps

_MIN_WIDTH, _MAX_WIDTH = 60, 100

_RULE = "read as a RoPE cos/sin cache (automatic for two files, two keys, --config, or a file with cos and sin)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("RoPE caches (see `pe-proofs audit --help`)")
    group.add_argument("--rope", action="store_true", help=_RULE)
    group.add_argument(
        "--config", metavar="CONFIG", help="a Hugging Face config.json to check the cache against"
    )
    group.add_argument(
        "--layer-type", metavar="TYPE", help="the entry of a config nested by layer type"
    )
    group.add_argument(
        "--layer",
        metavar="N",
        type=int,
        help="the layer the cache is for, in a config with no_rope_layers (Llama 4's NoPE layers)",
    )
    group.add_argument(
        "--convention",
        choices=("rotate_half", "interleaved"),
        help="how the code applying the cache pairs q/k components, when not what its layout says",
    )
    group.add_argument(
        "--positions-key",
        metavar="KEY",
        help="the 1-D integer array of the rows' positions (default: 'positions' if present)",
    )


def wanted(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a RoPE audit (module docstring)."""
    if args.rope or args.config or args.layer_type or args.convention or args.positions_key:
        return True
    if args.layer is not None:
        return True
    if len(args.file) >= 2 or len(args.key or []) >= 2:
        return True
    from numeric.rope_audit.files import holds_cos_and_sin

    return not args.key and holds_cos_and_sin(args.file[0])


def rope_reading(path: str, key: str | None) -> tuple[str, object] | None:
    """(the array's role, "cos" or "sin", and its RoPE audit) when one array the sinusoidal
    audit faulted reads as a sound RoPE cache, read as the role its name says, else the other.
    None otherwise."""
    from numeric.audit.errors import InputError
    from numeric.rope_audit import audit_rope
    from numeric.rope_audit.files import open_rope

    try:
        cache = open_rope([path], None if key is None else [key])
    except InputError:
        return None
    array = cache.cos if cache.cos is not None else cache.sin
    named = "cos" if cache.cos is not None else "sin"
    for role in (named, "sin" if named == "cos" else "cos"):
        try:
            result = audit_rope(
                array if role == "cos" else None,
                array if role == "sin" else None,
                positions=cache.positions,
                what=cache.what,
            )
        except InputError:
            return None
        if result.rotary_dim >= 2 and result.outcome is Outcome.SOUND:
            return role, result
    return None


def rope_hint(
    path: str, key: str | None, against: str | None, against_key: str | None
) -> str | None:
    """What a sinusoidal audit (or comparison) that failed should say when its array (each
    array) reads as a RoPE cache (rope_reading), else None."""
    reading = rope_reading(path, key)
    if reading is None:
        return None
    role, rope = reading
    how = "give --rope" + ("" if role == "cos" else " with a file or --key name containing 'sin'")
    if against is None:
        return (
            f"{path} reads as a RoPE {role} cache, sound as one ({rope.findings[0]}); the "
            f"sinusoidal audit above does not apply to it: {how} to audit it as a RoPE cache"
        )
    other = rope_reading(against, against_key)
    if other is None:
        return None
    from numeric.rope_audit import compare_rope
    from numeric.rope_audit.files import open_rope

    arrays = []
    for (file, k), r in (((path, key), role), ((against, against_key), other[0])):
        cache = open_rope([file], None if k is None else [k])
        array = cache.cos if cache.cos is not None else cache.sin
        arrays += [array, None] if r == "cos" else [None, array]
    same = compare_rope(*arrays)
    verdict = "the same rotations" if same.same else "different: " + "; ".join(same.findings)
    return (
        f"{path} and {against} read as RoPE {role} and {other[0]} caches; compared as RoPE "
        f"caches they hold {verdict}. The table comparison above does not apply to them: "
        f"{how} to compare them as RoPE caches"
    )


def _check(args: argparse.Namespace) -> None:
    if args.layer_type is not None and args.config is None:
        raise UsageError("--layer-type picks an entry of the --config file; give --config")
    if args.layer is not None and args.config is None:
        raise UsageError("--layer picks a layer of the --config file; give --config")
    if args.against is not None and (args.config or args.layer_type or args.convention):
        raise UsageError(
            "--config, --layer-type and --convention check one cache; give them without --against"
        )
    if len(args.file) > 2 or len(args.key or []) > 2:
        raise UsageError("a RoPE cache is one or two files (cos, then sin) and at most two --key")
    if args.against is not None and len(args.against) > 2:
        raise UsageError("--against takes one or two files (cos, then sin)")


def run(args: argparse.Namespace) -> int:
    """Read the cache (and B's), audit or compare, print; the exit status of its outcome."""
    from numeric.audit.errors import InputError
    from numeric.rope_audit import audit_rope, compare_rope
    from numeric.rope_audit.files import open_rope

    _check(args)
    with user_input(InputError):
        try:
            cache = open_rope(args.file, args.key, args.positions_key)
            notes = list(cache.notes)
            if args.against is None:
                result = audit_rope(
                    cache.cos,
                    cache.sin,
                    positions=cache.positions,
                    config=args.config,
                    layer_type=args.layer_type,
                    layer=args.layer,
                    convention=args.convention,
                    what=cache.what,
                )
                outcome = result.outcome
            else:
                other = open_rope(args.against, args.against_key)
                notes += [f"B: {note}" for note in other.notes]
                result = compare_rope(
                    cache.cos,
                    cache.sin,
                    other.cos,
                    other.sin,
                    positions_a=cache.positions,
                    positions_b=other.positions,
                )
                outcome = Outcome.of_verdict(result.same)
        except MemoryError:
            raise UsageError(
                f"out of memory auditing {args.file[0]}; the audit needs about 512 MB free"
            ) from None
    if args.json:
        print(dumps({**result.to_json(), "read": notes}, ensure_ascii=True))
    else:
        width = max(_MIN_WIDTH, min(_MAX_WIDTH, shutil.get_terminal_size().columns))
        print("\n".join([f"read: {note}" for note in notes] + result.report_lines(width)))

    return EXIT_STATUS[outcome]
