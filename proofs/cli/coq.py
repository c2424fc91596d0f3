"""`pe-proofs coq --out DIR`: write the Coq development (headline and one module per theorem)."""

from __future__ import annotations

import argparse

from proofs import registry
from proofs.cli.files import check_directory, write_files
from proofs.cli.options import add_out_argument, positive_even_int

NAME = "coq"
HELP = (
    "write the Coq development: _CoqProject, Headline.v, one module of lemmas per theorem "
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
        [registry.build(n, d_model=args.d_model) for n in registry.names()]
    )
    files = development.files()
    changed = set(write_files(args.out, {n: t.encode("utf-8") for n, t in files.items()}))
    for name in files:
        print(f"{'wrote' if name in changed else 'unchanged'} {args.out / name}")
    lemmas = sum(len(m.lemmas) for m in development.modules)
    missing = development.not_generated()
    links = [link for link in missing if link.link]
    print(
        f"{lemmas} lemmas in {len(development.modules)} modules; {len(links)} links and "
        f"{len(missing) - len(links)} facts have no lemma (also in {args.out / REPORT}):"
    )
    for link in missing:
        print(f"  {link.theorem} {link.where}: {link.reason}")
    return 0
