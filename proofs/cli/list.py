"""`pe-proofs list`: each theorem's name and one-line statement."""

from __future__ import annotations

import argparse

from proofs import registry

NAME = "list"
HELP = "list the theorems with their one-line statements"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options


def run(args: argparse.Namespace) -> int:
    del args
    for name in registry.names():
        theorem = registry.build(name)
        print(f"{name:<12} {theorem.statement}")
    return 0
