"""Where a sweep's batches of games run: this machine's processes, or a Dask cluster.

A backend maps a function over batches and yields each result as it comes back, in any
order (a sweep's figures never depend on the order). Each closes cleanly on Ctrl-C: its
workers are stopped and no process is left behind.

    local  (default) --workers N processes on this machine; nothing to install or start
    dask   a Dask cluster: --address tcp://HOST:8786 joins a running one; without an
           address, a cluster of --workers processes is started here for the sweep

Dask rather than Ray: see docs/scaling.md (install weight, start-up time, Ctrl-C).
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Protocol

from .core.errors import GameError
from .extras import needs
from .interrupts import ignore_sigint, sigint_deferred, sigint_held, sigint_raised

BACKENDS: Final = ("local", "dask")
CONNECT_TIMEOUT: Final = 10.0  # seconds to reach a cluster's scheduler
# Jobs sent ahead of the results, a worker: enough to keep every worker busy, few enough that
# sending them is quick whatever the sweep's size (a Ctrl-C is looked at between results).
WINDOW: Final = 4


class Backend(Protocol):
    """What a sweep asks of a backend."""

    workers: int

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[Any]:
        """`fn(job)` for every job, each result as it comes back."""
        ...

    def close(self) -> None:
        """Stop the workers (started here) and let go of the cluster (joined)."""
        ...


def make_backend(name: str, workers: int = 1, address: str | None = None,
                 timeout: float = CONNECT_TIMEOUT) -> Backend:
    """A backend by name; a bad name, a missing package or a cluster that does not answer
    is a GameError (one line), as is an argument of the wrong type or out of range."""
    import math

    from .core import checks

    checks.text(name, "the backend's name")
    checks.whole(workers, "workers", 1, 64)
    if address is not None:
        checks.text(address, "address", empty=False)
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or not (
            math.isfinite(timeout) and 0 < timeout <= 3600):
        raise GameError(f"timeout must be a number of seconds above 0 and at most 3600, not "
                        f"{checks.what(timeout)}")
    if name == "local":
        if address:
            raise GameError("--address is for --backend dask (the local backend runs here)")
        return LocalBackend(workers)
    if name == "dask":
        return DaskBackend(workers, address, timeout)
    from .core.errors import closest

    extra = " (Ray is not supported: docs/scaling.md says why)" if name == "ray" else ""
    raise GameError(f"unknown backend {name!r}{closest(name, BACKENDS)}{extra}; backends: "
                    + ", ".join(BACKENDS))


class LocalBackend:
    """This machine: the games in this process (one worker) or in a pool of processes.

    Ctrl-C (to this process alone or to its whole group, once or twice) ends the pool at
    once: the workers ignore SIGINT, and this process takes it between waits for results
    (a tenth of a second at most), terminates the workers mid-game and waits for them
    before passing it on, so no process is left behind. A worker killed from outside stops
    the sweep with a GameError (the pool notices the death, ends the other workers and
    fails the batches left).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[Any]:
        if self.workers <= 1 or len(jobs) <= 1:
            with sigint_raised() as asked:  # games in this process: Ctrl-C stops one
                for job in jobs:
                    result = fn(job)
                    if asked:  # raised where Python swallowed it: acted on here
                        raise KeyboardInterrupt
                    yield result
                if asked:  # pressed while the last result was being kept
                    raise KeyboardInterrupt
            return
        import itertools
        import multiprocessing
        import queue
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        # Ctrl-C raised at any bytecode could leave a future's lock held (as_completed takes
        # them all), and the pool's thread would wait on it for ever: it is taken in _next.
        with sigint_deferred() as asked:
            try:
                workers = min(self.workers, len(jobs))
                self._pool = ProcessPoolExecutor(workers, mp_context=ctx,
                                                 initializer=ignore_sigint)
                done: queue.SimpleQueue[Any] = queue.SimpleQueue()
                todo = iter(jobs)
                # a bounded window of jobs in flight, topped up as each result comes back:
                # sending a million jobs first would keep a Ctrl-C waiting for seconds
                for job in itertools.islice(todo, WINDOW * workers):
                    self._pool.submit(fn, job).add_done_callback(done.put)
                for _ in jobs:
                    result = _next(done, asked).result()
                    job = next(todo, _END)
                    if job is not _END:
                        self._pool.submit(fn, job).add_done_callback(done.put)
                    yield result
                self._pool.shutdown(wait=True)  # every job done: the workers leave
                self._pool = None
                if asked:
                    raise KeyboardInterrupt  # pressed as the last games ended
            except BrokenProcessPool:
                raise GameError("a worker process died (was it killed?) and the sweep "
                                "stopped; with --store, the same command again plays only "
                                "the games not kept") from None
            finally:
                self.close()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        with sigint_held():  # a second Ctrl-C must not stop the ending half-way
            # the batches under way are stopped, not finished (shutdown alone would wait for
            # them): the workers are terminated first, the pool then sees them gone. Python
            # 3.14 names this terminate_workers(); before it, the pool's own processes, read
            # before shutdown() forgets them.
            procs = list((getattr(pool, "_processes", None) or {}).values())
            for p in procs:
                p.terminate()  # SIGTERM, mid-game or not
            for p in procs:
                p.join()
            pool.shutdown(wait=True, cancel_futures=True)


_END: Final = object()  # the end of the jobs


def _next(done: Any, asked: list[int]) -> Any:
    """The next finished future; KeyboardInterrupt once Ctrl-C has been pressed."""
    import queue

    while not asked:
        with contextlib.suppress(queue.Empty):
            return done.get(timeout=0.1)
    raise KeyboardInterrupt


def _dask() -> Any:
    """Dask's distributed package (untyped: read as Any)."""
    import importlib

    return importlib.import_module("distributed")


def _local_cluster(distributed: Any, workers: int) -> Any:
    """A Dask cluster of `workers` processes on this machine. Its processes start with Ctrl-C
    ignored (a wrapper ignores it before Python starts: they inherit that, and Python and
    asyncio then leave it so): the terminal's Ctrl-C reaches only this process, which closes
    the cluster, and no worker prints a traceback. This process never ignores Ctrl-C: the
    cluster starts in a thread while this one waits, and a Ctrl-C meanwhile ends the workers
    started so far and raises KeyboardInterrupt at once (the start is not waited for)."""
    import logging
    import threading

    box: dict[str, Any] = {}

    def start() -> None:
        try:
            box["cluster"] = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=":0", silence_logs=logging.CRITICAL)
        except BaseException as err:  # told in the thread that waits
            box["error"] = err

    before = {id(c) for c in _clusters()}
    with sigint_deferred() as asked, _spawned_ignoring_sigint():
        starting = threading.Thread(target=start, name="artproject-dask-start", daemon=True)
        starting.start()
        while starting.is_alive() and not asked:
            starting.join(0.05)
    if asked:
        with sigint_held():
            if "cluster" in box:
                _close_cluster(box["cluster"])
            else:
                _stop_starting(starting, before)
        raise KeyboardInterrupt
    if "error" in box:
        raise box["error"]
    return box["cluster"]


@contextlib.contextmanager
def _spawned_ignoring_sigint() -> Iterator[None]:
    """While inside, processes that multiprocessing spawns (Dask's workers) run Python through
    a shell that ignores SIGINT first (an ignored signal stays ignored across exec; a handler
    does not). Without a POSIX shell: SIGINT is ignored here meanwhile, as a last resort."""
    import atexit
    import shlex
    import shutil
    import signal
    import sys
    import tempfile
    from multiprocessing import spawn

    if os.name != "posix" or not os.path.exists("/bin/sh"):  # pragma: no cover
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, before)
        return
    old = spawn.get_executable()
    # the folder goes when this process ends (a cluster still starting may yet use it)
    folder = tempfile.mkdtemp(prefix="artproject-spawn-")
    atexit.register(shutil.rmtree, folder, True)
    wrapper = os.path.join(folder, "python")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\ntrap '' INT\nexec {shlex.quote(os.fsdecode(old or sys.executable))}"
                ' "$@"\n')
    os.chmod(wrapper, 0o700)
    spawn.set_executable(wrapper)
    try:
        yield
    finally:
        spawn.set_executable(old)


class DaskBackend:
    """A Dask cluster: joined at `address`, or started here with `workers` processes.

    Ctrl-C is held (never ignored) everywhere this process talks to Dask and acted on at
    once: raised at any bytecode it could land in Dask's own callbacks and leave them
    half-done (a close that then hangs); connecting and starting run in a thread this one
    waits on, and results are waited for a tenth of a second at a time."""

    def __init__(self, workers: int, address: str | None, timeout: float) -> None:
        self._cluster: Any = None
        self._client: Any = None
        self.address = address
        with sigint_deferred() as asked:
            try:
                distributed = _dask()
            except ImportError:
                raise GameError(needs("the dask backend (Dask)", "scale")) from None
            import logging

            for name in ("distributed", "tornado", "asyncio"):
                logging.getLogger(name).setLevel(logging.CRITICAL)  # one line on a failure
            try:
                self._connect(distributed, workers, address, timeout, asked)
                if asked:
                    raise KeyboardInterrupt  # pressed as the connection was made
            except (OSError, TimeoutError, ValueError) as err:
                self.close()
                where = f"the cluster at {address}" if address else "a local Dask cluster"
                reason = str(err).splitlines()[0] if str(err) else type(err).__name__
                raise GameError(f"cannot reach {where}: {reason}") from None
            except BaseException:  # Ctrl-C while connecting: nothing started here is left
                self.close()
                raise

    def _connect(self, distributed: Any, workers: int, address: str | None, timeout: float,
                 asked: list[int]) -> None:
        if asked:
            raise KeyboardInterrupt  # pressed while Dask was imported
        if address:
            self._client = _waited(lambda: distributed.Client(address, timeout=timeout), asked)
        else:
            self._cluster = _local_cluster(distributed, workers)
            self._client = _waited(lambda: distributed.Client(self._cluster, timeout=timeout),
                                   asked)
        self.workers = max(1, sum(_waited(self._client.nthreads, asked).values()))

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[Any]:
        import itertools

        distributed = _dask()
        todo = iter(jobs)
        with sigint_deferred() as asked:
            # a bounded window of jobs on the cluster, topped up as results come back
            # (sending a million at once takes the client minutes)
            live = set(self._client.map(fn, list(itertools.islice(todo, WINDOW * self.workers)),
                                        pure=False))
            try:
                while live:
                    for fut in _finished(distributed, live, asked):
                        live.discard(fut)
                        job = next(todo, _END)
                        if job is not _END:
                            live.add(self._client.submit(fn, job, pure=False))
                        yield fut.result()
                if asked:
                    raise KeyboardInterrupt  # pressed as the last results came (else lost)
            except distributed.KilledWorker:
                raise GameError("a batch's worker died again and again (Dask's retries ran "
                                "out); the games finished before are kept in the store"
                                ) from None
            finally:
                with contextlib.suppress(Exception):
                    self._client.cancel(list(live))

    def close(self) -> None:
        with sigint_held():  # a second Ctrl-C must not stop Dask's close half-way
            client = getattr(self, "_client", None)
            if client is not None:
                with contextlib.suppress(Exception):
                    client.close()
                self._client = None
            if self._cluster is not None:
                _close_cluster(self._cluster)
                self._cluster = None


def _waited(fn: Callable[[], Any], asked: list[int]) -> Any:
    """fn() in a thread while this one waits: a Ctrl-C (noted in `asked`) raises
    KeyboardInterrupt at once, fn left to end in its own (daemon) thread."""
    import threading

    box: dict[str, Any] = {}

    def call() -> None:
        try:
            box["value"] = fn()
        except BaseException as err:  # told in the thread that waits
            box["error"] = err

    worker = threading.Thread(target=call, name="artproject-dask", daemon=True)
    worker.start()
    while worker.is_alive() and not asked:
        worker.join(0.05)
    if asked:
        raise KeyboardInterrupt
    if "error" in box:
        raise box["error"]
    return box["value"]


def _finished(distributed: Any, live: set[Any], asked: list[int]) -> Any:
    """The futures among `live` that are done, waited for a tenth of a second at a time;
    KeyboardInterrupt once Ctrl-C has been pressed."""
    while not asked:
        try:
            done, _ = distributed.wait(list(live), timeout=0.1, return_when="FIRST_COMPLETED")
            return done
        except TimeoutError:
            continue
    raise KeyboardInterrupt


def _close_cluster(cluster: Any) -> None:
    """Close a local cluster, its worker processes first ended outright: a sweep stopped by
    Ctrl-C does not wait for the games under way (and no process is left behind)."""
    mine = _end_dask_processes(wait=False)
    with contextlib.suppress(Exception):
        cluster.close(timeout=5)
    _wait_ended(mine)


def _stop_starting(starting: Any, before: set[int]) -> None:
    """End a local cluster still starting (in the thread `starting`): no process is spawned
    any more (each would fail at once, quietly), those spawned are killed (one half-started
    may not heed SIGTERM yet), the start is given a moment to give up, and the cluster is
    taken off the list Dask closes at exit (which would wait for it)."""
    from multiprocessing import spawn

    old = spawn.get_executable()
    if os.path.exists("/bin/false"):
        spawn.set_executable("/bin/false")
    _end_dask_processes(kill=True)
    starting.join(1.0)
    _end_dask_processes(kill=True)
    _forget_starting(before)
    if not starting.is_alive():
        spawn.set_executable(old)


def _clusters() -> Any:
    """Dask's clusters of this process, which it closes at exit (a weak set)."""
    return importlib.import_module("distributed.deploy.spec").SpecCluster._instances


def _forget_starting(before: set[int]) -> None:
    """Take the cluster still starting (one not in `before`, the ids of those there already)
    off the list Dask closes at exit: closing one that has not finished starting waits for it,
    seconds. Its processes end when this one does, each watching its parent
    (distributed.process)."""
    with contextlib.suppress(Exception):
        known = _clusters()
        for cluster in list(known):
            if id(cluster) not in before:
                known.discard(cluster)


def _end_dask_processes(wait: bool = True, kill: bool = False) -> list[Any]:
    """Terminate (or kill) this process's Dask worker processes, mid-game or not; waited for
    unless told."""
    import multiprocessing

    mine = [p for p in multiprocessing.active_children() if "Dask" in p.name]
    for p in mine:
        with contextlib.suppress(Exception):
            p.kill() if kill else p.terminate()
    if wait:
        _wait_ended(mine)
    return mine


def _wait_ended(procs: list[Any]) -> None:
    for p in procs:
        with contextlib.suppress(Exception):
            p.join(timeout=2)
            if p.is_alive():
                p.kill()
                p.join()
