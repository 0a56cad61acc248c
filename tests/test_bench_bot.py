"""bench/bot.py --against TREE loads another tree's bot, the core/art/bots/ package,
beside this one (a smoke test of the loading: the figures are never asserted)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _against(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "bot.py"), "--against",
                           str(tree), "--games", "1", "--rounds", "1"],
                          capture_output=True, text=True, cwd=ROOT, check=False)


def _tree(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "core" / "art" / "bots", tmp_path / "core" / "art" / "bots",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_against_a_tree_with_the_same_bot_takes_the_same_decisions(tmp_path: Path) -> None:
    r = _against(_tree(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "other bot/engine" in r.stdout
    assert "the same decisions in every game" in r.stdout


def test_against_plays_the_other_trees_bot_not_this_one(tmp_path: Path) -> None:
    """The other tree's bot places each artwork where this one would not: its decisions
    differ, so it is that tree's package that played."""
    tree = _tree(tmp_path)
    movement = tree / "core" / "art" / "bots" / "movement.py"
    text = movement.read_text()
    assert "return min(legal, key=cost)" in text
    movement.write_text(text.replace("return min(legal, key=cost)",
                                     "return max(legal, key=cost)"))
    r = _against(tree)
    assert r.returncode == 0, r.stderr
    assert "THE DECISIONS DIFFER" in r.stdout


def test_against_nothing_says_what_was_expected(tmp_path: Path) -> None:
    r = _against(tmp_path / "nowhere")
    assert r.returncode == 2
    assert "no bot there" in r.stderr and "core/art/bots/" in r.stderr
    assert "Traceback" not in r.stderr
