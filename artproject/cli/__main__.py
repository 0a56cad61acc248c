"""`python -m artproject.cli` is the `artproject` command (as `python -m artproject` is)."""

from . import main

raise SystemExit(main())
