"""The adapters' `render_mode="rgb_array"`: the game's picture, `artproject render`'s drawing of
the position, as an RGB array, through Gymnasium and PettingZoo, both games; Gymnasium's
`check_env` (its render check included) and frame collection with it; a clear error where
its library is missing.

Needs the `ai` and `render` extras (CI installs them through `dev`); PettingZoo's
`render_test`, which tries every mode the metadata lists, is in tests/test_adapters.py."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from io import BytesIO
from pathlib import Path

import cairosvg
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import RenderCollection
from PIL import Image

from artproject.adapters.gymnasium import KernelEnv, env_id
from artproject.adapters.pettingzoo import raw_env
from artproject.core.saves import save_game

BOTH = [("art-project", {"players": 2}), ("art-of-war", {"players": 2})]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "ai"
# the frames in docs/ai/ are written again when this is set (or when one is missing), as the
# browser tests' screenshots are (tests/web/conftest.py)
WRITE = os.environ.get("ARTPROJECT_WRITE_SCREENSHOTS") == "1"


def rasterized(svg: bytes) -> np.ndarray:
    """An SVG file's picture as RGB, drawn on white."""
    png = cairosvg.svg2png(bytestring=svg, background_color="white")
    with Image.open(BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))


def played(e: raw_env, steps: int, rng: np.random.Generator) -> None:
    """`steps` random legal ids through the AEC loop (fewer if the game ends)."""
    for _ in range(steps):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            return
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(("game", "options"), BOTH)
def test_a_frame_is_the_positions_picture_as_artproject_render_draws_it(
        game: str, options: dict[str, object], tmp_path: Path) -> None:
    e = raw_env(game=game, render_mode="rgb_array", **options)
    e.reset(seed=5)
    first = e.render()
    played(e, 6, np.random.default_rng(5))
    frame = e.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.flags.c_contiguous
    assert frame.flags.writeable  # (a recorder may mark it)
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 8  # (a drawing, not a blank)
    assert not np.array_equal(frame, first)  # the position moved on: so did its picture
    # the same position saved and drawn from the command line: the same pixels
    save_game(e.seated.game, tmp_path / "game.json")
    subprocess.run([sys.executable, "-m", "artproject.cli", "render", "--save",
                    str(tmp_path / "game.json"), "-o", str(tmp_path / "game.svg")],
                   check=True, capture_output=True)
    assert np.array_equal(frame, rasterized((tmp_path / "game.svg").read_bytes()))
    target = DOCS / f"rgb-array-{game}.png"  # (docs/ai.md shows them)
    if WRITE or not target.exists():
        DOCS.mkdir(parents=True, exist_ok=True)
        Image.fromarray(frame).save(target, optimize=True)


@pytest.mark.parametrize(("game", "options"), BOTH)
def test_gymnasium_checks_and_collects_the_frames(game: str, options: dict[str, object],
                                                  ) -> None:
    e = KernelEnv(game=game, render_mode="rgb_array", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e)  # (its render check too: a frame of the right kind after a reset)
    frames = RenderCollection(KernelEnv(game=game, render_mode="rgb_array", **options))
    obs, _ = frames.reset(seed=2)
    steps = 0
    for _ in range(3):
        obs, _, term, trunc, _ = frames.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
        if term or trunc:
            break
    got = frames.render()  # (every frame since the reset: the reset's, then each step's)
    assert len(got) == steps + 1
    assert all(f.shape == got[0].shape and f.dtype == np.uint8 for f in got)
    made = gymnasium.make(env_id(game), render_mode="rgb_array", **options)  # (registered)
    made.reset(seed=2)
    assert made.render().shape == got[0].shape


def test_render_modes_named_and_the_missing_library_said(monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:
    for make in (raw_env, KernelEnv):
        assert make.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
        with pytest.raises(ValueError, match="'human', 'ansi', 'rgb_array', not 'video'"):
            make(game="art-of-war", players=2, render_mode="video")
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # (an import of it fails, as uninstalled)
    for make in (raw_env, KernelEnv):
        with pytest.raises(ValueError, match=r"pip install 'artproject\[render\]'"):
            make(game="art-of-war", players=2, render_mode="rgb_array")
        text = make(game="art-of-war", players=2, render_mode="ansi")  # (the rest as before)
        text.reset(seed=1)
        assert "Art of War" in str(text.render())
