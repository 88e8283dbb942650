"""Where a batch of games runs: in this process, in local worker processes, or on Ray.

Every batch here is a list of numbered jobs: job `i` is `work(payload, i)`, a
top-level function of a payload that is the same for every job and of the job's
number alone. Its result does not depend on which process, machine or worker
count ran it, and results come back sorted by number, so the same seeds give
identical figures on every backend.

- `local` (the default): `workers` processes on this machine (1: this process).
- `ray`: tasks on a Ray cluster, joined at `address` (or `RAY_ADDRESS`; with
  neither, Ray starts a local instance). The workers import pyramids, and any
  game plugin the batch uses, from their own environment, so every node needs
  the same install (see docs/scale.md). Unless this process has joined Ray
  itself (`ray.init` before the batch), the games are sent from a child process
  that joins, and leaves, for this batch only: Ray ends the process that sends
  games with exit code 1, and no word, when the node under it stops (`ray stop`
  mid-run, the raylet lost), so the command itself, which only reads the
  child's results, stays to say so in words and exit with its own code.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

from pyramids.core import OptionError, PyramidsError
from pyramids.core.errors import N_, Words

P = TypeVar("P")
R = TypeVar("R")

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Backend:
    """How to run a batch: `kind` is 'local' or 'ray'; `workers` the parallelism asked for.

    On Ray, `workers` only sizes the chunks; Ray runs as many at once as the
    cluster has CPUs.
    """

    kind: str = "local"
    workers: int = 1
    address: str | None = None


def make_backend(kind: str = "local", workers: int = 1, address: str | None = None) -> Backend:
    """A checked backend; a clear error for an unknown kind, a bad worker count or no Ray."""
    if kind not in BACKENDS:
        raise OptionError(N_("unknown backend '{backend}'; choose one of: {allowed}"),
                          backend=kind, allowed=", ".join(BACKENDS))
    if workers < 1:
        raise OptionError(N_("--workers must be at least 1, got {workers}"), workers=workers)
    if address is not None and kind != "ray":
        raise OptionError(N_("--address joins a Ray cluster; use it with --backend ray"))
    if kind == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise OptionError(
                N_("--backend ray needs Ray: pip install 'pyramids[ray]'")
            ) from None
        backend = Backend(kind, workers, address)
        joined = ray_address(backend)
        if joined is not None:
            check_ray_address(joined, "--address" if address else "RAY_ADDRESS")
        return backend
    return Backend(kind, workers, address)


#: How long a cluster's head has to answer before the address is called unreachable.
RAY_CONNECT_SECONDS = 5.0
RAY_ADDRESS_FORMS = Words(N_("HOST:PORT of the cluster's head (e.g. 127.0.0.1:6379, as "
                             "ray start --head prints it), ray://HOST:PORT (Ray Client, "
                             "port 10001), or auto"))


def _host_and_port(address: str) -> tuple[str, int] | None:
    """`host:port` (or `ray://host:port`, `[v6]:port`) split, or None for another form."""
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host.removeprefix("[").removesuffix("]"), int(port)


def check_ray_address(address: str, source: str = "--address",
                      timeout: float = RAY_CONNECT_SECONDS) -> None:
    """Refuse, in a few seconds, a Ray address where nothing answers: `ray.init` would
    otherwise retry for many minutes, printing only its own logs. `auto` and `local`
    are Ray's to find; a form that is neither those nor host:port is refused."""
    if address in ("auto", "local"):
        return
    parts = _host_and_port(address)
    if parts is None:
        raise OptionError(N_("{source} '{address}' is not a Ray address; give {forms}"),
                          source=source, address=address, forms=RAY_ADDRESS_FORMS)
    host, port = parts
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        reason = "timed out" if isinstance(error, TimeoutError) else (
            error.strerror or str(error))
        raise OptionError(
            N_("cannot reach the Ray cluster at {address} ({source}): nothing answered on "
               "{host} port {port} within {seconds} s ({reason}); is the cluster's head "
               "running there? An address is {forms}; without --address and RAY_ADDRESS, "
               "a local Ray instance starts"),
            address=address, source=source, host=host, port=port,
            seconds=f"{timeout:g}", reason=reason, forms=RAY_ADDRESS_FORMS) from None


def _run_chunk(work: Callable[[P, int], R], payload: P, indices: Sequence[int]) -> list[R]:
    return [work(payload, index) for index in indices]


def _chunks(indices: Sequence[int], parallel: int, grouped: bool = True) -> list[list[int]]:
    # A few chunks a worker: enough to balance uneven game lengths, few enough
    # that sending the payload and collecting results stays cheap. Not grouped: one
    # job a chunk, each result back as soon as it is made.
    size = max(1, min(8, len(indices) // (parallel * 4))) if grouped else 1
    return [list(indices[start:start + size]) for start in range(0, len(indices), size)]


def run_indexed(
    work: Callable[[P, int], R],
    payload: P,
    count: int,
    backend: Backend | None = None,
    on_done: Callable[[int], None] | None = None,
    indices: Sequence[int] | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """`[work(payload, i) for i in range(count)]` (or for `indices` only, in their
    order), run on `backend`; `on_done(n)` as jobs end, and `on_result(i, result)`
    in this process as each result arrives (a file can keep them as they come: then
    each job is sent on its own, so a stopped run loses only the jobs running)."""
    backend = backend or Backend()
    wanted = list(range(count) if indices is None else indices)

    def arrived(chunk: Sequence[int], results: Sequence[R], by_index: dict[int, R]) -> None:
        for index, result in zip(chunk, results, strict=True):
            by_index[index] = result
            if on_result:
                on_result(index, result)
        if on_done:
            on_done(len(chunk))

    by_index: dict[int, R] = {}
    if backend.kind == "ray":
        for chunk, results in _run_on_ray(work, payload, wanted, backend, on_result is None):
            arrived(chunk, results, by_index)
    elif backend.workers == 1:
        for index in wanted:
            arrived([index], [work(payload, index)], by_index)
    else:
        with ProcessPoolExecutor(max_workers=backend.workers, initializer=_leave_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            futures = {
                pool.submit(_run_chunk, work, payload, chunk): chunk
                for chunk in _chunks(wanted, backend.workers, on_result is None)
            }
            try:
                for future in as_completed(futures):
                    arrived(futures[future], future.result(), by_index)
            except BaseException:
                # Leaving the pool waits for its jobs: only for those already running,
                # not for every game of the run, played for nothing.
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    return [by_index[index] for index in wanted]


def _leave_with_parent(parent: int) -> None:
    """In a local worker: exit once the command that started it is gone. A command
    killed outright (kill -9, the OOM killer) cannot end its workers, and they would
    wait for jobs for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def ray_address(backend: Backend) -> str | None:
    """The cluster to join: `--address`, else `RAY_ADDRESS`, else None (a local instance)."""
    return backend.address or os.environ.get("RAY_ADDRESS") or None


def _ensure_ray(backend: Backend) -> Any:
    import ray

    if not ray.is_initialized():
        address = ray_address(backend)
        if address is None:
            ray.init(num_cpus=backend.workers if backend.workers > 1 else None,
                     include_dashboard=False, logging_level=logging.WARNING,
                     log_to_driver=False)
        else:
            try:
                ray.init(address=address, logging_level=logging.WARNING)
            except (ConnectionError, RuntimeError, ray.exceptions.RayError) as error:
                raise _cannot_join(ray, address, backend, error) from None
    return ray


def _cannot_join(ray: Any, address: str, backend: Backend, error: Exception) -> OptionError:
    """Why `ray.init` could not join the cluster at `address`, in words, with what to do."""
    source = "--address" if backend.address else "RAY_ADDRESS"
    if _refused_token(ray, error):
        # Ray sends its token to an address given by name only when told to
        # (RAY_AUTH_MODE=token): a head that has one refuses everyone else.
        return OptionError(
            N_("the Ray cluster at {address} ({source}) asks for its token: set "
               "RAY_AUTH_MODE=token, with the cluster's token in ~/.ray/auth_token or "
               "RAY_AUTH_TOKEN (on the head, ray get-auth-token prints it); see docs/scale.md"),
            address=address, source=source)
    return OptionError(N_("cannot join the Ray cluster at {address} ({source}): {reason}"),
                       address=address, source=source, reason=_first_line(error))


def _refused_token(ray: Any, error: BaseException | None) -> bool:
    """Did the head refuse us for want of its token? Ray says so in an exception that
    `ray.init` wraps twice, the last time as text only."""
    while error is not None:
        if isinstance(error, ray.exceptions.AuthenticationError) or "InvalidAuthToken" in str(
                error):
            return True
        error = error.__cause__
    return False


def _first_line(error: BaseException) -> str:
    """Ray's own words on what failed, without the traceback some of them carry."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _run_on_ray(
    work: Callable[[P, int], R],
    payload: P,
    indices: Sequence[int],
    backend: Backend,
    grouped: bool = True,
) -> Iterator[tuple[list[int], list[R]]]:
    """Each chunk of `indices` with its results, as the cluster finishes them: sent
    from this process where it has joined Ray already, else from a child process
    (`_ray_driver`) that joins for this batch."""
    import ray

    if ray.is_initialized():
        yield from _ray_chunks(ray, work, payload, indices, backend, grouped)
        return
    blob = ray.cloudpickle.dumps((work, payload, list(indices), backend, grouped))
    yield from _from_driver(_ray_driver, blob, ray.cloudpickle.loads)


# What the child that sends the games says through its pipe.
_RESULTS = "results"
_DONE = "done"
_FAILED = "failed"


def _from_driver(
    target: Callable[[int, Any, bytes], None], blob: bytes, loads: Callable[[bytes], Any]
) -> Iterator[Any]:
    """Run `target(parent pid, pipe end, blob)` in a child process and yield what it
    sends as `(_RESULTS, chunk, results)`; its `(_FAILED, error)` is raised here, and
    its end with neither `_DONE` nor a failure sent (Ray ended it) is a
    `PyramidsError` in words. A consumer that stops early (Ctrl-C, an error of its
    own) ends the child."""
    context = multiprocessing.get_context("spawn")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=target, args=(os.getpid(), sending, blob),
                            name="pyramids-ray-driver", daemon=True)
    child.start()
    sending.close()
    ended = False
    try:
        while True:
            try:
                message = loads(receiving.recv_bytes())
            except EOFError:
                break
            if message[0] == _RESULTS:
                yield message[1], message[2]
            elif message[0] == _FAILED:
                ended = True
                raise message[1]
            else:
                ended = True
                break
    finally:
        receiving.close()
        if not ended and child.is_alive():
            child.terminate()
        child.join()
    if not ended:
        raise PyramidsError(
            N_("the Ray cluster stopped running the games (Ray ended the process that sent "
               "them, exit code {code}: the Ray node under it stopped, e.g. ray stop during "
               "the run); the games a --results file kept stay there: give the same "
               "command again, once the cluster is back, to go on from them"),
            code=child.exitcode)


def _ray_driver(parent: int, pipe: Any, blob: bytes) -> None:
    """In the child process: join Ray, send the games, and send back each chunk's
    results, then `_DONE` (or `_FAILED` with the error), and leave Ray."""
    _leave_with_parent(parent)
    # Nothing of a run goes to stdout but the command's own output (--json): what Ray
    # prints while the games run goes to stderr, as in the command's own process.
    os.dup2(2, 1)
    import ray

    dumps = ray.cloudpickle.dumps
    try:
        work, payload, indices, backend, grouped = ray.cloudpickle.loads(blob)
        for chunk, results in _ray_chunks(_ensure_ray(backend), work, payload, indices,
                                          backend, grouped):
            pipe.send_bytes(dumps((_RESULTS, chunk, results)))
        message = dumps((_DONE,))
    except BaseException as error:  # KeyboardInterrupt too: the command says it
        if isinstance(error, ray.exceptions.RayTaskError):
            # The games' own error, raised in a worker: raised as it would be here.
            error = error.cause if isinstance(error.cause, BaseException) else error
        try:
            message = dumps((_FAILED, error))
        except Exception:  # an error that does not pickle: its words
            message = dumps((_FAILED, PyramidsError(
                N_("the games failed on Ray: {reason}"), reason=_first_line(error))))
    try:
        pipe.send_bytes(message)
    finally:
        pipe.close()
        ray.shutdown()


def _ray_chunks(
    ray: Any,
    work: Callable[[P, int], R],
    payload: P,
    indices: Sequence[int],
    backend: Backend,
    grouped: bool,
) -> Iterator[tuple[list[int], list[R]]]:
    """Each chunk of `indices` with its results, sent from this process (joined)."""
    parallel = max(backend.workers, int(ray.cluster_resources().get("CPU", 1)))
    remote_chunk = ray.remote(_run_chunk)
    # The payload goes to the object store once, not once a chunk.
    payload_ref = ray.put(payload)
    pending = {
        remote_chunk.remote(work, payload_ref, chunk): chunk
        for chunk in _chunks(indices, parallel, grouped)
    }
    try:
        for ref, chunk in _as_ready(ray, pending):
            yield chunk, ray.get(ref)
    except ray.exceptions.RayTaskError:
        raise  # the games' own error, raised in a worker: as it would be here
    except ray.exceptions.RayError as error:
        # A node, its raylet or a worker gone for good (`ray stop`, a machine lost):
        # Ray has already retried what it could.
        raise PyramidsError(
            N_("the Ray cluster stopped running the games ({reason}); the games a "
               "--results file kept stay there: give the same command again, once the "
               "cluster is back, to go on from them"),
            reason=_first_line(error)) from None


def _as_ready(ray: Any, pending: dict[Any, list[int]]) -> Iterator[tuple[Any, list[int]]]:
    waiting = list(pending)
    while waiting:
        ready, waiting = ray.wait(waiting, num_returns=1)
        for ref in ready:
            yield ref, pending[ref]
