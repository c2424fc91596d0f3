"""One module per pe-proofs subcommand: NAME, HELP, add_arguments(parser), run(args) -> int."""
