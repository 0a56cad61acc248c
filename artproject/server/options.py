"""What a create request asks for (docs/server.md, `POST /api/games`): its seats, its options
and its variants, each checked against what its game offers (the kernel's `choices`, the
catalog's lists); a request naming anything else is refused, naming what it may be."""

from __future__ import annotations

from typing import Any, Final

from .live import Refused, Seat

COMMON: Final = ("game", "seats", "variants", "name")  # the keys every game's request takes


def read_options(ch: dict[str, Any], body: dict[str, Any],
                 ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """A create request's options (as the summary shows them), the game's `create` options
    they set, and its variants; Refused naming the first that its game does not offer (a
    key it does not take, an option's value, a variant unknown or named twice)."""
    takes = [*COMMON, *ch["options"]]
    for key in body:
        if key not in takes:
            raise Refused("bad-option", f"{body.get('game')} takes no {key[:40]!r}: a request "
                          f"to create it names {', '.join(takes)}")
    options: dict[str, Any] = {}
    create: dict[str, Any] = {}
    for key, spec in ch["options"].items():
        value = body.get(key, spec["default"])
        if value not in spec["values"]:
            raise Refused("bad-option", f"{key} must be one of {', '.join(spec['values'])}")
        options[key], create[spec["option"]] = value, value
    variants = body.get("variants", [])
    if not isinstance(variants, list) or any(v not in ch["variants"] for v in variants):
        raise Refused("bad-option", "variants must be a list of: "
                      + (", ".join(ch["variants"]) or "(none for this game)"))
    twice = sorted({v for v in variants if variants.count(v) > 1})
    if twice:
        raise Refused("bad-option", f"variants: {', '.join(twice)} named more than once "
                      "(each variant is on or off)")
    options["variants"] = list(variants)
    return options, create, list(variants)


def read_seats(spec: Any, players: list[int], game: str) -> list[Seat]:
    """The seats a create request asks for: "person" or "bot:NAME", one per player."""
    from ..policies import policies_of

    lo, hi = players
    if not isinstance(spec, list) or not lo <= len(spec) <= hi:
        raise Refused("bad-option", f"seats must be a list of {lo} to {hi} entries, each "
                      "\"person\" or \"bot:NAME\"")
    bots = policies_of(game)
    out = []
    for i, s in enumerate(spec):
        if s == "person":
            out.append(Seat(i, "person"))
            continue
        kind, _, bot = s.partition(":") if isinstance(s, str) else ("", "", "")
        if kind != "bot" or bot not in bots or bot == "cautious":
            raise Refused("bad-option", f"seat {i + 1}: expected \"person\" or \"bot:NAME\" "
                          "with NAME one of " + ", ".join(b for b in bots if b != "cautious"))
        out.append(Seat(i, "bot", bot, bot))
    return out
