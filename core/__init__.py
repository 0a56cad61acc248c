"""The core: the kernel (a decision machine that knows no game: machine.py, registry.py,
fields.py, games.py, saves.py, scenario.py (with scenario_words.py and scenario_steps.py),
invariants.py; declared files: schema.py, sources.py, files.py; a cache of work made from
files: cache.py) and, in art/, its first game."""
