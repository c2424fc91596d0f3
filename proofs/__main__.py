"""`python -m proofs`: the pe-proofs command line."""

from proofs.cli import main

raise SystemExit(main())
