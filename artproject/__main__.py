"""`python -m artproject` is the `artproject` command."""

try:
    from .cli import command
except KeyboardInterrupt:  # Ctrl-C while the command's first modules load: as any other
    import sys

    print("artproject: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

raise SystemExit(command())
