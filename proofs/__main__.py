"""`python -m proofs`: the pe-proofs command line."""

from proofs.cli.main import main

raise SystemExit(main())
