"""The pe-proofs command line: the entry point (main.py), one module per subcommand, options,
the process pool and file writing."""
