"""Every backend gives the same figures for the same seeds: one process, local workers, Ray.

The Ray tests start a local Ray instance with two CPUs (as CI does); they are
skipped only where the `ray` extra is not installed.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import OptionError, PyramidsError, RecordError, load
from pyramids.sim import backends
from pyramids.sim.arena import run_arena
from pyramids.sim.backends import Backend, make_backend, run_indexed
from pyramids.sim.balance import run_balance
from pyramids.sim.play import play_series
from tests.scripts import load_script

runner = CliRunner()


def square_plus(offset: int, index: int) -> int:
    return index * index + offset


def without_timings(summary: dict[str, Any]) -> dict[str, Any]:
    # Seconds a move are measured, not derived from the seeds.
    return {key: value for key, value in summary.items() if key != "seconds_per_move"}


def arena_summary(backend: Backend) -> dict[str, Any]:
    return without_timings(run_arena("pacal", "greedy,random", 24, seed=11, backend=backend))


def test_results_come_back_in_job_order_from_local_workers() -> None:
    done: list[int] = []
    results = run_indexed(square_plus, 5, 37, make_backend("local", 2), done.append)
    assert results == [i * i + 5 for i in range(37)]
    assert sum(done) == 37


@pytest.mark.parametrize("workers", [1, 2])
def test_chosen_indices_run_alone_and_each_result_is_reported_as_it_arrives(
        workers: int) -> None:
    arrived: dict[int, int] = {}
    done: list[int] = []
    chosen = list(range(36, -1, -1))  # 37 jobs: grouped, 4 a chunk on 2 workers
    results = run_indexed(square_plus, 1, 37, make_backend("local", workers), done.append,
                          indices=chosen, on_result=arrived.__setitem__)
    assert results == [i * i + 1 for i in chosen]
    assert arrived == {i: i * i + 1 for i in chosen}
    # Kept as they come: each job comes back on its own, not in a chunk of several.
    assert done == [1] * len(chosen)


def test_local_workers_give_the_same_arena_as_one_process() -> None:
    assert arena_summary(make_backend("local", 2)) == arena_summary(make_backend("local", 1))


def test_local_workers_give_the_same_series_as_one_process() -> None:
    game = load("mahjongg", layout="giza-step-ramp")
    alone = play_series(game, ["greedy"], 6, seed=4, keep_finals=True)
    shared = play_series(game, ["greedy"], 6, seed=4, keep_finals=True,
                         backend=make_backend("local", 2))
    assert shared.to_dict() == alone.to_dict()
    assert shared.finals == alone.finals


@pytest.mark.parametrize(
    ("kind", "workers", "address", "expected"),
    [
        ("spark", 1, None, "unknown backend 'spark'; choose one of: local, ray"),
        ("local", 0, None, "--workers must be at least 1, got 0"),
        ("local", 2, "ray://head:10001",
         "--address joins a Ray cluster; use it with --backend ray"),
    ],
)
def test_bad_backend_settings_say_what_is_allowed(
    kind: str, workers: int, address: str | None, expected: str
) -> None:
    with pytest.raises(OptionError, match="^" + expected.replace("(", r"\(").replace(")", r"\)")):
        make_backend(kind, workers, address)


def test_cli_refuses_an_unknown_backend_before_playing() -> None:
    result = runner.invoke(app, ["arena", "pacal", "--agents", "greedy,random", "--games", "4",
                                 "--backend", "spark"])
    assert result.exit_code == 2
    assert "unknown backend 'spark'; choose one of: local, ray" in result.output


def test_simulate_with_workers_prints_what_one_process_prints() -> None:
    base = ["simulate", "temple", "--agents", "greedy", "--players", "3", "--games", "8",
            "--seed", "5", "--json"]
    alone = runner.invoke(app, base)
    shared = runner.invoke(app, [*base, "--workers", "2"])
    assert alone.exit_code == 0, alone.output
    assert json.loads(shared.output) == json.loads(alone.output)


def nap(seconds: float, index: int) -> int:
    time.sleep(seconds)
    return index


def fail_first(seconds: float, index: int) -> int:
    if index == 0:
        raise RecordError("game 0 cannot be played")
    return nap(seconds, index)


def test_local_workers_stop_at_the_first_error_not_after_every_game() -> None:
    """An error in one game (or in keeping a result: a full disk) once surfaced only
    after the workers had played every other game of the run, for nothing."""
    started = time.monotonic()
    with pytest.raises(RecordError, match="game 0 cannot be played"):
        run_indexed(fail_first, 0.25, 60, make_backend("local", 2), on_result=print)
    # Every game played would take 60 x 0.25 s over two workers: 7.5 s.
    assert time.monotonic() - started < 4


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid`, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _running(pids: set[int]) -> set[int]:
    """Those of `pids` still running (an exited child not yet reaped is a zombie, Z)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.add(pid)
    return running


def _wait_for(check: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_local_workers_leave_when_the_command_is_killed(tmp_path: Path) -> None:
    """`kill -9` (or the OOM killer) on a run with --workers 2 once left its worker
    processes waiting for jobs for ever, one per worker and per run."""
    command = subprocess.Popen(
        [sys.executable, "-c", "from pyramids.sim.backends import make_backend, run_indexed; "
         "from tests.sim.test_backends import nap; "
         "run_indexed(nap, 0.5, 40, make_backend('local', 2), on_result=print)"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(["src", "."])})
    try:
        assert _wait_for(lambda: len(_children(command.pid)) == 2, 30)
        workers = _children(command.pid)
    finally:
        command.send_signal(signal.SIGKILL)
        command.wait()
    left = _wait_for(lambda: not _running(workers), 5)
    for pid in _running(workers):
        os.kill(pid, signal.SIGKILL)  # not left behind by this test either
    assert left


@pytest.fixture
def listening_head() -> Iterator[str]:
    """An address where something answers, as a cluster's head would, so that the
    command goes on to join it."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield f"127.0.0.1:{server.getsockname()[1]}"


def _join_fails(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    """`ray.init` for a cluster fails with `error`, as Ray 2.60 raises it."""
    ray = pytest.importorskip("ray")

    def refused(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refused)

    def joined_here(target: Any, blob: bytes, loads: Any) -> Iterator[Any]:
        # The child process that sends the games joins first (`_ensure_ray`); done
        # here, where `ray.init` is the failing one, its error reaches the command as
        # the child's would (tests/sim/test_ray_driver.py).
        backend = loads(blob)[3]
        backends._ensure_ray(backend)
        raise AssertionError("joined a cluster that refuses")
        yield

    monkeypatch.setattr(backends, "_from_driver", joined_here)


def _ray_wrapped(inner: str) -> ConnectionError:
    # ray.init's own chain: the head's refusal as text in a RuntimeError, under a
    # ConnectionError that names the address only.
    try:
        try:
            raise RuntimeError(f"Failed to connect to GCS. Last connection error: {inner}")
        except RuntimeError as cause:
            raise ConnectionError("Failed to connect to Ray cluster at 192.0.2.2:6379") from cause
    except ConnectionError as error:
        return error


@pytest.mark.parametrize(("inner", "said"), ids=["token", "other"], argvalues=[
    ("ray.exceptions.AuthenticationError: RPC error: InvalidAuthToken: Authentication token "
     "is missing or incorrect", "asks for its token: set RAY_AUTH_MODE=token, with the "
     "cluster's token in ~/.ray/auth_token or RAY_AUTH_TOKEN"),
    ("RPC error: Deadline Exceeded", "): Failed to connect to Ray cluster at 192.0.2.2:6379"),
])
def test_a_cluster_that_cannot_be_joined_is_refused_in_words(
        monkeypatch: pytest.MonkeyPatch, listening_head: str, inner: str, said: str) -> None:
    """A head that asks for a token (one has been in ~/.ray since Ray first started a
    local instance) once ended the run in two tracebacks."""
    _join_fails(monkeypatch, _ray_wrapped(inner))
    monkeypatch.setenv("RAY_ADDRESS", listening_head)
    result = runner.invoke(app, ["arena", "pacal", "--agents", "greedy,random", "--games", "2",
                                 "--backend", "ray"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert lines[0].startswith(f"error: the Ray cluster at {listening_head} (RAY_ADDRESS) "
                               if "Token" in inner else
                               f"error: cannot join the Ray cluster at {listening_head} "
                               "(RAY_ADDRESS")
    assert said in lines[0]


def lose_the_worker_at_three(offset: int, index: int) -> int:
    if index == 3:
        os._exit(1)  # as a worker killed, or its machine lost, would go
    return index + offset


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_same_arena_as_local_processes(ray_instance: Any) -> None:
    on_ray = arena_summary(make_backend("ray", 2))
    assert on_ray == arena_summary(make_backend("local", 2))
    assert on_ray["games"] == 24


def test_ray_runs_chosen_indices_and_reports_each_result(ray_instance: Any) -> None:
    arrived: dict[int, int] = {}
    chosen = [30, 2, 17, 5, 11]
    results = run_indexed(square_plus, 1, 37, make_backend("ray", 2), indices=chosen,
                          on_result=arrived.__setitem__)
    assert results == [i * i + 1 for i in chosen]
    assert arrived == {i: i * i + 1 for i in chosen}


def test_a_worker_lost_for_good_ends_the_run_in_words(ray_instance: Any) -> None:
    """Once Ray has retried the lost job, the run stops with what happened and how to go
    on, not Ray's traceback; the results that came back were each handed on."""
    arrived: dict[int, int] = {}
    with pytest.raises(PyramidsError) as caught:
        run_indexed(lose_the_worker_at_three, 100, 6, make_backend("ray", 2),
                    on_result=arrived.__setitem__)
    assert str(caught.value).startswith("the Ray cluster stopped running the games (")
    assert str(caught.value).endswith("give the same command again, once the cluster is "
                                      "back, to go on from them")
    assert 3 not in arrived
    assert all(result == index + 100 for index, result in arrived.items())


def test_ray_gives_the_same_balance_report(ray_instance: Any) -> None:
    # An agent setting, not a bare name: its options reach every Ray task.
    kwargs: dict[str, Any] = {"agent": "greedy:mistakes=0.5", "seed": 2}
    local = run_balance("temple", 10, [2, 4], **kwargs)
    assert run_balance("temple", 10, [2, 4], backend=make_backend("ray", 2), **kwargs) == local
    assert local["by_players"] != run_balance("temple", 10, [2, 4], agent="greedy",
                                              seed=2)["by_players"]


def test_ray_gives_the_same_series_and_progress(ray_instance: Any) -> None:
    game = load("pacal-solo")
    done: list[int] = []
    on_ray = play_series(game, ["greedy"], 20, seed=9, keep_finals=True,
                         backend=make_backend("ray", 2), on_done=done.append)
    alone = play_series(game, ["greedy"], 20, seed=9, keep_finals=True)
    assert on_ray.to_dict() == alone.to_dict()
    assert on_ray.finals == alone.finals
    assert sum(done) == 20


def test_cli_arena_on_ray_prints_the_local_figures(ray_instance: Any) -> None:
    base = ["arena", "pacal", "--agents", "greedy,random", "--games", "12", "--seed", "3",
            "--json"]
    local = json.loads(runner.invoke(app, base).output)
    on_ray = runner.invoke(app, [*base, "--backend", "ray", "--workers", "2"])
    assert on_ray.exit_code == 0, on_ray.output
    assert without_timings(json.loads(on_ray.output)) == without_timings(local)


def test_solver_benchmark_on_ray_gives_the_local_verdicts_and_nodes(ray_instance: Any) -> None:
    bench = load_script("benchmarks/solver.py", "benchmark_solver")
    # Ray's workers cannot import a benchmark script by name; they get it by value,
    # as they do when the script runs as __main__.
    ray_instance.cloudpickle.register_pickle_by_value(bench)
    common = ("turtle", 8, 30, bench.SolverOptions(), 4000, None, "all on", False, True)
    local = bench.run(*common)
    on_ray = bench.run(*common, None, make_backend("ray", 2))
    for key in ("decided", "unsolvable", "unsolvable_seeds", "undecided_seeds",
                "median_nodes", "max_nodes", "implementation"):
        assert on_ray[key] == local[key], key
    assert local["deals"] == 8


def _closed_port() -> int:
    """A local port with nothing listening (bound for a moment, then let go)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_ray_address_is_refused_in_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`ray.init` at an address where nothing listens retried for over ten minutes,
    printing only Ray's logs; the backend checks the address first (no cluster needed)."""
    import time

    from pyramids.sim.backends import check_ray_address

    port = _closed_port()
    started = time.monotonic()
    with pytest.raises(OptionError) as caught:
        check_ray_address(f"127.0.0.1:{port}")
    message = str(caught.value)
    assert message.startswith(f"cannot reach the Ray cluster at 127.0.0.1:{port} (--address): "
                              f"nothing answered on 127.0.0.1 port {port} within 5 s")
    assert "An address is HOST:PORT of the cluster's head (e.g. 127.0.0.1:6379" in message
    with pytest.raises(OptionError, match=r"^cannot reach .* \(RAY_ADDRESS\)"):
        check_ray_address(f"ray://127.0.0.1:{port}", "RAY_ADDRESS")
    with pytest.raises(OptionError, match="^--address 'head-node' is not a Ray address; give "
                                          "HOST:PORT"):
        check_ray_address("head-node")
    check_ray_address("auto")  # Ray's own to find
    assert time.monotonic() - started < 5


def test_the_cli_refuses_an_unreachable_ray_cluster_before_playing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("ray")
    port = _closed_port()
    result = runner.invoke(app, ["arena", "pacal", "--agents", "greedy,random", "--games", "2",
                                 "--backend", "ray", "--address", f"127.0.0.1:{port}"])
    assert result.exit_code == 2
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in result.stderr
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(OptionError, match=r"\(RAY_ADDRESS\)"):
        make_backend("ray", 1)
