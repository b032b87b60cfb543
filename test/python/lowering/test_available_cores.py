"""
The cores a process may run on (lowering/kernels/threads.py, `available_cores` and
`latency_threads`): its affinity, the CPU bandwidth of its Linux control group counted as
cores (lowering/kernels/cpu_quota.py: a container's `--cpus` caps the threads as its
affinity does), and the physical cores that OpenVINO's LATENCY hint runs on by default. The
parsers run on fake /proc and /sys files and cgroup trees (every layout: v2, v1, both,
nested limits, a namespace's view); one test puts a real process in a real group where this
machine lets it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import lowpass
from lowpass.lowering.kernels import cpu_quota, threads
from lowpass.lowering.kernels.cpu_quota import cpu_quota_cores


def _proc(tmp_path: Path, groups: str, mounts: list[str], name: str = "proc") -> Path:
    """A fake /proc/self with these `cgroup` lines and `mountinfo` lines."""
    proc = tmp_path / name
    proc.mkdir()
    (proc / "cgroup").write_text(textwrap.dedent(groups).lstrip())
    (proc / "mountinfo").write_text("\n".join(mounts) + "\n")
    return proc


def _v2_mount(point: Path, root: str = "/") -> str:
    return f"41 31 0:38 {root} {point} rw,relatime - cgroup2 cgroup2 rw"


def _v1_mount(point: Path, root: str = "/") -> str:
    return f"32 31 0:29 {root} {point} rw,relatime - cgroup cgroup rw,cpu,cpuacct"


def _write(directory: Path, files: dict[str, str]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text + "\n")


@pytest.fixture(autouse=True)
def _fresh_levels() -> None:
    cpu_quota._LEVELS.clear()  # (each test's fake /proc is another tree)


def test_v2_limit_is_the_least_of_the_group_and_its_parents(tmp_path: Path) -> None:
    root = tmp_path / "cgroup"
    _write(root, {"cgroup.controllers": "cpu"})  # (the root group has no cpu.max)
    _write(root / "kubepods", {"cpu.max": "350000 100000"})
    _write(root / "kubepods" / "pod", {"cpu.max": "max 100000"})
    _write(root / "kubepods" / "pod" / "app", {"cpu.max": "max 100000"})
    proc = _proc(tmp_path, "0::/kubepods/pod/app\n", [_v2_mount(root)])
    assert cpu_quota_cores(proc) == 4  # (3.5 CPUs' time: rounded up)
    _write(root / "kubepods" / "pod", {"cpu.max": "200000 100000"})
    assert cpu_quota_cores(proc) == 2  # (read again at each call: the tighter parent)
    _write(root / "kubepods" / "pod" / "app", {"cpu.max": "50000 100000"})
    assert cpu_quota_cores(proc) == 1  # (half a CPU: at least one)


def test_no_limit(tmp_path: Path) -> None:
    root = tmp_path / "cgroup"
    _write(root / "app", {"cpu.max": "max 100000"})
    assert cpu_quota_cores(_proc(tmp_path, "0::/app\n", [_v2_mount(root)])) is None


def test_v1_cpu_controller_quota_and_period(tmp_path: Path) -> None:
    cpu = tmp_path / "cpu,cpuacct"
    _write(cpu, {"cpu.cfs_quota_us": "-1", "cpu.cfs_period_us": "100000"})
    _write(cpu / "docker" / "abc", {"cpu.cfs_quota_us": "200000", "cpu.cfs_period_us": "100000"})
    groups = """
        12:pids:/docker/abc
        4:cpu,cpuacct:/docker/abc
        1:name=systemd:/docker/abc
        0::/docker/abc
    """
    mounts = ["40 31 0:37 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd",
              "39 31 0:36 / /x/pids rw - cgroup cgroup rw,pids", _v1_mount(cpu)]
    proc = _proc(tmp_path, groups, mounts)
    assert cpu_quota_cores(proc) == 2  # (exactly 2 CPUs' time: 2, not 3)
    _write(cpu / "docker" / "abc", {"cpu.cfs_quota_us": "-1"})
    assert cpu_quota_cores(proc) is None


def test_a_host_with_both_hierarchies_takes_the_least(tmp_path: Path) -> None:
    cpu, unified = tmp_path / "cpu", tmp_path / "unified"
    _write(cpu / "g", {"cpu.cfs_quota_us": "300000", "cpu.cfs_period_us": "100000"})
    _write(unified / "g", {"cpu.max": "150000 100000"})
    proc = _proc(tmp_path, "1:cpu:/g\n0::/g\n", [_v1_mount(cpu), _v2_mount(unified)])
    assert cpu_quota_cores(proc) == 2


def test_a_namespace_sees_its_own_group_at_the_mount_point(tmp_path: Path) -> None:
    """In a container the group's path may be "/" (a cgroup namespace) or the mount may show
    only the group's own subtree (its root field is the group): its limit is at the mount
    point, and nothing above it is visible."""
    root = tmp_path / "cgroup"
    _write(root, {"cpu.max": "100000 100000"})
    assert cpu_quota_cores(_proc(tmp_path, "0::/\n", [_v2_mount(root)])) == 1
    mounts = [_v2_mount(root, root="/docker/abc")]
    proc = _proc(tmp_path, "0::/docker/abc\n", mounts, name="proc2")
    assert cpu_quota_cores(proc) == 1


def test_a_group_the_mount_does_not_show_is_no_limit(tmp_path: Path) -> None:
    """A group beside the namespace's ("/../other") or beside the mount's root ("/gx" under
    a mount of "/g": a prefix of the string, not of the path) has no limit readable here;
    the directories the mount does show are not its."""
    root = tmp_path / "cgroup"
    _write(root, {"cpu.max": "100000 100000"})
    _write(root / "other", {"cpu.max": "100000 100000"})
    assert cpu_quota_cores(_proc(tmp_path, "0::/../other\n", [_v2_mount(root)])) is None
    mounts = [_v2_mount(root, root="/g")]
    assert cpu_quota_cores(_proc(tmp_path, "0::/gx\n", mounts, name="proc2")) is None


def test_a_mount_point_of_any_bytes_is_read(tmp_path: Path) -> None:
    """mountinfo holds paths as bytes (a disk mounted at a Latin-1 name is no UTF-8)."""
    root = tmp_path / "cgroup"
    _write(root / "g", {"cpu.max": "100000 100000"})
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "cgroup").write_text("0::/g\n")
    (proc / "mountinfo").write_bytes(
        b"50 31 8:1 / /media/caf\xe9 rw - vfat /dev/sdb1 rw\n" + _v2_mount(root).encode() + b"\n")
    assert cpu_quota_cores(proc) == 1


def test_unreadable_or_odd_files_are_no_limit(tmp_path: Path) -> None:
    assert cpu_quota_cores(tmp_path / "no-such-proc") is None
    root = tmp_path / "later"
    _write(root, {"cpu.max": "100000 100000"})
    _proc(tmp_path, "0::/\n", [_v2_mount(root)], name="no-such-proc")
    assert cpu_quota_cores(tmp_path / "no-such-proc") == 1  # (a failed read is not kept)
    root = tmp_path / "cgroup"
    _write(root / "g", {"cpu.max": "garbage"})
    proc = _proc(tmp_path, "0::/g\nnot a line\n", ["short line", _v2_mount(root)])
    assert cpu_quota_cores(proc) is None


def test_the_quota_caps_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The threads of a compiled model (and of its streams) follow `available_cores`."""
    from lowpass.runtime import cpu

    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no os.sched_getaffinity (not Linux)")

    monkeypatch.setattr(threads, "cpu_quota_cores", lambda: 1)
    assert threads.available_cores() == 1
    config = cpu.parse_config({"INFERENCE_NUM_THREADS": 0})
    assert config.threads == 1
    config = cpu.parse_config({"PERFORMANCE_HINT": "THROUGHPUT"})
    assert config.streams == 1
    monkeypatch.setattr(threads, "cpu_quota_cores", lambda: 10_000)
    assert threads.available_cores() == len(os.sched_getaffinity(0))


def test_a_process_in_a_group_of_one_cpus_time(tmp_path: Path) -> None:
    """A real group (cgroup v1's `cpu` controller, where this machine has it and lets this
    process make one): a process in it counts one core."""
    if not sys.platform.startswith("linux"):
        pytest.skip("control groups are Linux's")
    base = Path("/sys/fs/cgroup/cpu")
    group = base / f"lowpass-test-{os.getpid()}"
    try:
        group.mkdir()
    except OSError as e:
        pytest.skip(f"no cgroup v1 cpu hierarchy this process may write ({e.strerror})")
    try:
        try:
            (group / "cpu.cfs_period_us").write_text("100000")
            (group / "cpu.cfs_quota_us").write_text("100000")
        except OSError as e:  # (no CFS bandwidth control, or a parent's quota below 1 CPU)
            pytest.skip(f"the group takes no quota of one CPU ({e.strerror})")
        script = (
            f"import os; open({str(group / 'cgroup.procs')!r}, 'w').write(str(os.getpid()))\n"
            "from lowpass.lowering.kernels.threads import available_cores\n"
            "print(available_cores())"
        )
        ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=60)  # fmt: skip
        assert ran.returncode == 0, ran.stderr[-2000:]
        assert ran.stdout.split() == ["1"]
    finally:
        group.rmdir()


def test_smt_siblings_count_once(tmp_path: Path) -> None:
    sysfs = tmp_path / "cpu"
    # CPUs 0-3: two cores of two threads each (the newer file); 4 and 5 a core each, of the
    # same core id as 0 and 1 on another die (a kernel before 5.5: the older file only)
    for cpu, siblings in ((0, "0,2"), (1, "1,3"), (2, "0,2"), (3, "1,3")):
        _write(sysfs / f"cpu{cpu}" / "topology", {"core_cpus_list": siblings, "core_id": "0"})
    for cpu in (4, 5):
        _write(sysfs / f"cpu{cpu}" / "topology", {"thread_siblings_list": str(cpu),
                                                  "core_id": "0"})
    assert threads.physical_cores({0, 1, 2, 3}, str(sysfs)) == 2
    assert threads.physical_cores({0, 2}, str(sysfs)) == 1
    assert threads.physical_cores({0, 1, 4, 5}, str(sysfs)) == 4
    assert threads.physical_cores({0, 7}, str(sysfs)) == 2  # (no topology for CPU 7: each counts)


def test_the_default_threads_are_the_latency_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A configuration that names no threads runs one per physical core (OpenVINO's LATENCY
    hint), at most the cores that `available_cores` allows; 0 asks for every core, SMT
    siblings too, and so does ENABLE_HYPER_THREADING; THROUGHPUT's streams still take one
    core each."""
    from lowpass.runtime import cpu

    monkeypatch.setattr(threads, "physical_cores", lambda cpus, sysfs="": max(1, len(cpus) // 2))
    monkeypatch.setattr(threads, "available_cores", lambda: 8)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    monkeypatch.setattr(cpu, "available_cores", lambda: 8)
    assert threads.latency_threads() == 4
    assert cpu.parse_config({}).threads == 4
    assert cpu.parse_config({"INFERENCE_NUM_THREADS": 0}).threads == 8
    assert cpu.parse_config({"PERFORMANCE_HINT": "THROUGHPUT"}).streams == 8
    assert cpu.parse_config({"ENABLE_HYPER_THREADING": True}).threads == 8  # (as OpenVINO's)
    assert cpu.parse_config({"ENABLE_HYPER_THREADING": False}).threads == 4
    assert cpu.parse_config({"NUM_STREAMS": 2}).threads == 2  # (LATENCY's 4, in two)
    assert cpu.parse_config({"NUM_STREAMS": 2, "PERFORMANCE_HINT": "THROUGHPUT"}).threads == 4
    assert lowpass.Core().get_property("CPU", "ENABLE_HYPER_THREADING") is False
    monkeypatch.setattr(threads, "available_cores", lambda: 3)  # (a quota of 3 CPUs' time)
    assert threads.latency_threads() == 3


def test_a_bad_hyper_threading_value_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`ENABLE_HYPER_THREADING` takes a bool (OpenVINO's YES/NO too); anything else is the
    device's one-line error, from the API and from lowpass-run (exit 1)."""
    from lowpass.runtime.errors import LowpassError
    from lowpass.tools.lowpass_run import main

    example = str(Path(__file__).parents[3] / "examples" / "convnet.mlir")
    with pytest.raises(LowpassError, match="ENABLE_HYPER_THREADING takes YES/NO"):
        lowpass.Core().compile_model(example, "CPU", {"ENABLE_HYPER_THREADING": "maybe"})
    assert main([example, "-c", "ENABLE_HYPER_THREADING=maybe"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ENABLE_HYPER_THREADING takes YES/NO" in err
