"""`pe-proofs coq --out DIR`: write the Coq development (headline and one module per theorem)."""

from __future__ import annotations

import argparse

from proofs import registry
from proofs.cli.files import check_directory, write_files
from proofs.cli.options import add_out_argument, positive_even_int

NAME = "coq"
HELP = (
    "write the Coq development: _CoqProject, Headline.v, Helpers.v, one module per theorem (a "
    "Coq theorem per part, a lemma per link), NoTautology.v "
    "(compile with coq_makefile -f _CoqProject -o Makefile && make)"
)
EXAMPLE = "pe-proofs coq --out coq && (cd coq && coq_makefile -f _CoqProject -o Makefile && make)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_out_argument(parser)
    parser.add_argument(
        "--d-model",
        type=positive_even_int,
        default=8,
        help="concrete d_model of whole-vector statements (default 8)",
    )


def run(args: argparse.Namespace) -> int:
    from proofs.engine.coq.development import REPORT, build_development

    check_directory(args.out, "--out")  # before the slow part: a bad --out fails at once
    development = build_development(
        [
            registry.build(n, d_model=args.d_model)
            for n in (*registry.names(), *registry.ledger_names())
        ]
    )
    files = development.files()
    changed = set(write_files(args.out, {n: t.encode("utf-8") for n, t in files.items()}))
    for name in files:
        print(f"{'wrote' if name in changed else 'unchanged'} {args.out / name}")
    print("Coq theorems generated (compile to check them; `prove --coq` does):")
    for module in development.modules:
        counts = []
        for kind, plural in (("part", "parts"), ("link", "links"), ("fact", "facts")):
            of_kind = [e for e in module.entries if e.kind == kind]
            counts.append(f"{sum(1 for e in of_kind if e.lemma)}/{len(of_kind)} {plural}")
        print(f"  {module.theorem.name}: {', '.join(counts)}")
    missing = development.missing()
    print(f"{len(missing)} without a Coq theorem (also in {args.out / REPORT}):")
    for entry in missing:
        print(f"  {entry.theorem} {entry.where}: {entry.reason}")
    return 0
