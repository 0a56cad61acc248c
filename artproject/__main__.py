"""`python -m artproject` is the `artproject` command."""

from .cli import main

raise SystemExit(main())
