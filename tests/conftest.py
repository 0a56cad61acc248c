"""Shared test set-up: Hypothesis profiles (ci: bounded for 2 cores; nightly: long)."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("nightly", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The compiled-rules cache (core/cache.py) writes into a folder of the session's own, never
# the user's: the suite runs with it on (a second load of a file is a hit), and
# tests/test_cache.py checks hits against compiling afresh.
_CACHE = tempfile.mkdtemp(prefix="artproject-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
os.environ.pop("ARTPROJECT_CACHE", None)
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

# The tests send Ctrl-C (SIGINT) to the commands they start and expect them to act on it, so
# none may inherit an ignored SIGINT from how pytest itself was started (`nohup`, a script's
# `command &`: an ignored signal stays ignored across exec; a handler does not). The tests of
# a command started that way ignore it in the child themselves (tests/test_interrupts.py).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own folder, as the working directory while the test runs (a command's
    relative paths, as an author types them, land there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
