"""Shared test set-up: Hypothesis profiles (ci: bounded for 2 cores; nightly: long)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

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
