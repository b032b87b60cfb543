"""
The CPU bandwidth a Linux control group allows this process: `docker run --cpus=2`,
Kubernetes' `resources.limits.cpu`, systemd's `CPUQuota=`.

A container on a 16-core server may see all 16 CPUs in its affinity and be allowed two CPUs'
time: a pool of 16 threads then spends the group's quota in an eighth of each period and
the scheduler stops every thread of the group for the rest of it (CFS bandwidth
throttling), so a job waits for the next period whatever its threads do. The JVM
(`os::active_processor_count`), .NET and Go size their thread counts by the quota; OpenVINO
2026.4 does not (openvinotoolkit/openvino issue 37838). `available_cores` counts the
quota's CPUs as cores, rounded up: measured on resnet50 int8 in a group of one CPU's time
on a 2-vCPU host, 2 threads took 9.69 ms an inference on average (half of them stopped,
up to ~50 ms) against 8.78 for one; of 1.5 CPUs' time, 6.40 against 8.79.

The limit of a group is the least of its own and of its ancestors' up to the root of the
hierarchy this process sees (`cpu.max` under cgroup v2; `cpu.cfs_quota_us` and
`cpu.cfs_period_us` under v1's `cpu` controller; a host with both, the least of the two).
"""

from __future__ import annotations

import math
import os
from pathlib import Path, PurePosixPath


def cpu_quota_cores(proc: Path = Path("/proc/self")) -> int | None:
    """The CPUs' worth of time (rounded up, at least 1) that this process's control groups
    allow it, or None where none limits it (or where nothing can be read: not Linux, no
    cgroup file system). `proc`: the process's /proc directory (tests give another)."""
    least: float | None = None
    for level, version in _levels(proc):
        cpus = _limit(level, version)
        if cpus is not None and (least is None or cpus < least):
            least = cpus
    if least is None:
        return None
    return max(1, math.ceil(least))


_LEVELS: dict[Path, tuple[tuple[Path, int], ...]] = {}


def _levels(proc: Path) -> tuple[tuple[Path, int], ...]:
    """The directories whose limits apply to the process (its groups' and their parents')
    with their cgroup versions: found once per process (a process moved to another group
    while it runs keeps the first's; files that could not be read are read again at the next
    call), their limits read at each `cpu_quota_cores`."""
    found = _LEVELS.get(proc)
    if found is None:
        try:  # (bytes as the kernel wrote them: a mount point need not be UTF-8)
            groups = os.fsdecode((proc / "cgroup").read_bytes()).splitlines()
            mounts = os.fsdecode((proc / "mountinfo").read_bytes()).splitlines()
        except OSError:
            return ()
        found = _LEVELS[proc] = tuple(
            (level, version) for directory, version in _limit_directories(groups, mounts)
            for level in _up_to_root(directory))  # fmt: skip
    return found


def _limit_directories(
    groups: list[str], mounts: list[str]
) -> list[tuple[tuple[Path, Path], int]]:
    """(the directory of this process's group, its hierarchy's mount point) and the cgroup
    version, for the v2 hierarchy and the v1 `cpu` controller's."""
    found = []
    for line in groups:  # "hierarchy:controllers:path" (v2: "0::path")
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hierarchy, controllers, path = parts
        if hierarchy == "0" and controllers == "":
            version = 2
        elif "cpu" in controllers.split(","):
            version = 1
        else:
            continue
        mount = _mount_of(mounts, version)
        if mount is not None:
            root, point = mount
            directory = _group_directory(point, root, path)
            if directory is not None:
                found.append(((directory, point), version))
    return found


def _mount_of(mounts: list[str], version: int) -> tuple[str, Path] | None:
    """(the root of the hierarchy the mount shows, its mount point) of the cgroup2 file
    system, or of the v1 hierarchy with the `cpu` controller (`proc(5)`, mountinfo:
    "id parent dev root point options [optional...] - type source super-options")."""
    for line in mounts:
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        if dash < 5 or len(fields) < dash + 4:
            continue
        kind, options = fields[dash + 1], fields[dash + 3].split(",")
        if (version == 2 and kind == "cgroup2") or (
            version == 1 and kind == "cgroup" and "cpu" in options
        ):
            return _unescape(fields[3]), Path(_unescape(fields[4]))
    return None


def _unescape(field: str) -> str:
    """A mountinfo path: space, tab, newline and backslash are written as octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def _group_directory(point: Path, root: str, path: str) -> Path | None:
    """The group's directory under the mount: its path relative to the mount's root (the
    mount point itself where the group is the root: a cgroup namespace's view, or a mount
    of the group's own subtree); None where the group lies outside what the mount shows (a
    path with "..": a group beside the namespace's; or not under the mount's root), whose
    limits cannot be read."""
    group, top = PurePosixPath(path), PurePosixPath(root)
    if ".." in group.parts or not (group == top or top in group.parents):
        return None
    return point.joinpath(*group.relative_to(top).parts)


def _up_to_root(directory_and_point: tuple[Path, Path]) -> list[Path]:
    """The group's directory and its parents up to the mount point."""
    directory, point = directory_and_point
    levels = [directory]
    while directory != point and point in directory.parents:
        directory = directory.parent
        levels.append(directory)
    return levels


def _limit(directory: Path, version: int) -> float | None:
    """The CPUs' worth of time a group's own limit allows (None: no limit, or unreadable)."""
    try:
        if version == 2:
            quota, period = (directory / "cpu.max").read_text().split()[:2]
            if quota == "max":
                return None
        else:
            quota = (directory / "cpu.cfs_quota_us").read_text().strip()
            period = (directory / "cpu.cfs_period_us").read_text().strip()
        cpus = int(quota) / int(period)
    except (OSError, ValueError, ZeroDivisionError):
        return None
    return cpus if cpus > 0 else None  # (v1: -1 is no limit)
