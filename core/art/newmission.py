"""The A.R.T. Project's template for `artproject new NAME --from MISSION` (through
core/art/tools.py): a new mission file that inherits a shipped one."""

from __future__ import annotations

import re

TEMPLATE = '''# {name}: a new mission for The A.R.T. Project.
# Made by `artproject new {name} --from {base}`.
#
# It extends the shipped mission "{base}": the base rules (missions/base.toml), that board's
# map and track, and its special rules all apply. Whatever you write here overrides or adds
# to them; a line you leave commented out changes nothing. The format is docs/missions.md;
# effects are written in the DSL of docs/dsl.md. Then:
#   artproject check {name}.toml          every mistake, with its line and column
#   artproject render {name}.toml -o {name}.svg
#   artproject simulate --mission {name}.toml --policy heuristic --difficulty all
#   artproject verify {name}.toml         search for a game that breaks your rules

name = "{name}"
title = "{title}"
extends = "{base}"
about = "A variant of {base_title}: say here what makes it different."

# Rule parameters: any key of [components], [setup], [rules] or [solo] in missions/base.toml.
# [rules]
# lost_city_at = 4        # a city falls at 4 agents instead of 5 (R18)
# weapon_bonus = 3        # a weapon adds 3 to the team's strength (R16)
# move_cost = "1 fuel"    # a DSL cost; it may read road.heading and the roads' attributes

# Health per player by difficulty (doubled in solo mode).
# [difficulty]
# easy = 5

# Hooks: effects that run when the core announces an event (docs/dsl.md lists them).
# hooks = [
#   "on artwork_collected: gain 1 fuel",
# ]

# Properties that `artproject verify` checks after every decision.
# [[property]]
# name = "the team never runs out of weapons"
# check = "van.weapon + reserve.weapon == 6"

# A new map replaces the inherited one: [[city]], [[road]] and [[track]] tables replace the
# whole list they belong to (see missions/{base}.toml for an example).
'''


def mission_text(name: str, base: str, base_title: str) -> str:
    return TEMPLATE.format(name=name, base=base, title=name.replace("-", " ").replace("_", " ")
                           .title(), base_title=base_title)


def valid_name(name: str) -> bool:
    return re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name) is not None
