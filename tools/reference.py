"""Write docs/reference.md from the schema's declarations (or --check that it is current).

    python tools/reference.py
    python tools/reference.py --check
"""

from __future__ import annotations

from artproject.reference import main

if __name__ == "__main__":
    raise SystemExit(main())
