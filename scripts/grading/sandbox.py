"""Run one submission in a bubblewrap sandbox.

What the student's code can see and do (see :func:`command`):

- the system (``/usr``), the Python installation, the virtual environment and
  the course's library, all read-only, at their usual paths;
- its own private folder, ``/home/student``: a copy of its notebook and the
  cases to run, and ``out/`` for the results. Nothing else of the machine:
  not the course folder (gradebook, ``source/``, other students), not ``/work``;
- no network (a network namespace of its own, only loopback), its own process
  tree, a user id of nobody;
- limits on memory (address space), CPU time, file size and open files
  (``prlimit``), on processes (a ``pids`` cgroup, where the machine offers
  one), and a wall-clock limit on the whole run;
- limits on disk: its ``/tmp`` is a tmpfs (memory) of a fixed size, so a full
  one says "No space left on device"; its private folder is on the grader's
  disk, so a watcher stops the sandbox when the folder grows past its quota.

A grader's work folders are in one folder of its own, ``grading-run-<pid>-<start>``
in the temporary directory (:func:`run_folder`), and its cgroups carry its process
id: a grader killed with SIGKILL leaves both, and the next one removes them
(:func:`clean_dead`). Ctrl-C stops every running sandbox (:func:`stop_all`).

If bubblewrap is missing or cannot start, :func:`check` raises
:class:`SandboxUnavailable`: grading stops, it never runs a submission unsandboxed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIBRARY = ROOT / "perceptron_lib"
INSIDE = "/home/student"  # the submission's private folder, as the sandbox sees it
GRADING = "/opt/grading"  # this package (the runner and the probe), read-only


class SandboxUnavailable(RuntimeError):
    """No sandbox can start on this machine: grading must not go on."""


@dataclass(frozen=True)
class Limits:
    """What one submission may use."""

    memory_bytes: int = 3 * 2**30  # address space of each process
    cpu_seconds: int = 600  # CPU time of each process
    processes: int = 256
    file_bytes: int = 256 * 2**20  # largest file it may write
    tmp_bytes: int = 256 * 2**20  # its /tmp, a tmpfs: the grader's memory
    shm_bytes: int = 64 * 2**20  # its /dev/shm (multiprocessing's locks), a tmpfs too
    work_bytes: int = 512 * 2**20  # its private folder, on the grader's disk
    open_files: int = 256
    wall_seconds: int = 900  # the whole run, kernel start to the last cell

    def describe_memory(self) -> str:
        return f"{self.memory_bytes / 2**30:g} GiB"


def _python_home() -> Path:
    return Path(os.path.realpath(sys.executable)).parent.parent


def command(
    work: Path,
    inner: list[str],
    limits: Limits,
    *,
    library: Path = LIBRARY,
    grading: tuple[str, ...] | None = None,
) -> list[str]:
    """The bwrap command line running ``inner`` on the private folder ``work``.

    ``library`` is the folder bound (read-only) at the library's path: the
    library itself, or for the fresh sandbox its answer-free copy
    (:mod:`grading.answer_free`). ``grading`` names the files of this package
    bound at :data:`GRADING` (``None``: the whole folder).
    """
    venv = Path(sys.prefix)
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: `make grade` installs it "
            "(Debian package bubblewrap); nothing was graded"
        )
    arguments = [
        bwrap,
        "--unshare-all",  # network, processes, IPC, host name, users
        "--uid",
        "65534",
        "--gid",
        "65534",
        "--die-with-parent",
        "--new-session",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "--symlink",
        "usr/sbin",
        "/sbin",
    ]
    for name in ("ld.so.cache", "localtime", "fonts", "mime.types", "ssl", "ca-certificates"):
        if Path("/etc", name).exists():
            arguments += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    # The private /tmp first, then the read-only binds: bwrap mounts in order, so a
    # course, library or environment that lives under /tmp (a clone in mktemp -d)
    # is bound on top of the empty /tmp instead of being hidden by it.
    arguments += ["--proc", "/proc", "--dev", "/dev"]
    arguments += ["--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm"]
    arguments += ["--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    python_home = _python_home()
    arguments += ["--ro-bind", str(python_home), str(python_home)]
    if not str(venv).startswith(str(python_home)):
        arguments += ["--ro-bind", str(venv), str(venv)]
    arguments += ["--ro-bind", str(library), str(LIBRARY)]
    if grading is None:
        arguments += ["--ro-bind", str(HERE), GRADING]
    else:  # a folder of its own, read-only, holding only those files
        arguments += ["--tmpfs", GRADING]
        for name in grading:
            arguments += ["--ro-bind", str(HERE / name), f"{GRADING}/{name}"]
        arguments += ["--remount-ro", GRADING]
    arguments += [
        "--bind",
        str(work),
        INSIDE,
        # The rest read-only: bwrap's root and /dev are tmpfs folders (the grader's
        # memory) with no size limit; only the private folder, /tmp and /dev/shm,
        # each bounded, can be written.
        "--remount-ro",
        "/dev",
        "--remount-ro",
        "/",
        "--chdir",
        INSIDE,
        "--clearenv",
        "--setenv",
        "HOME",
        f"{INSIDE}/home",
        "--setenv",
        "PATH",
        f"{venv}/bin:/usr/bin:/bin",
        "--setenv",
        "MPLBACKEND",
        "Agg",
        "--setenv",
        "MPLCONFIGDIR",
        "/tmp/matplotlib",
        "--setenv",
        "JUPYTER_RUNTIME_DIR",
        "/tmp/jupyter",
        "--setenv",
        "IPYTHONDIR",
        "/tmp/ipython",
        "--setenv",
        "OPENBLAS_NUM_THREADS",
        "1",
        "--setenv",
        "OMP_NUM_THREADS",
        "1",
        "--setenv",
        "PYDEVD_DISABLE_FILE_VALIDATION",
        "1",
        "--setenv",
        "PYTHONDONTWRITEBYTECODE",
        "1",
        "--setenv",
        "NUMBA_CACHE_DIR",
        f"{INSIDE}/numba",
        "--",
        "prlimit",
        f"--as={limits.memory_bytes}",
        f"--cpu={limits.cpu_seconds}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
        *inner,
    ]
    return arguments


def prepare() -> None:
    """Once per grading run, outside any sandbox: the library's bytecode and compiled loops.

    Also the answer-free copy of the library that the fresh sandbox binds
    (:func:`grading.answer_free.build`, kept until the library changes).

    The sandbox cannot write the library's folder, so without this every
    submission would compile the library's modules to bytecode and numba would
    compile its loops again, seconds of CPU per notebook. Both are made here,
    by the grader, from the library's own files, beside them in
    ``perceptron_lib/__pycache__`` (where numba's cache and Python's bytecode
    live when the chapters run; one in each of the library's folders that has
    compiled loops): the first run pays, later ones find them there.
    """
    from . import answer_free  # the fresh sandbox's library: built now, once, not per notebook

    answer_free.build()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    environment["PYTHONPATH"] = str(ROOT)
    stamp = LIBRARY / "__pycache__" / "grading-prepared.txt"
    if stamp.exists() and stamp.read_text() == _prepared_state():
        return  # nothing changed since the last run prepared it
    for step in (["-m", "compileall", "-q", str(LIBRARY)], ["-m", "perceptron_lib.warm_up"]):
        subprocess.run(
            [sys.executable, *step], cwd=ROOT, env=environment, check=True, capture_output=True
        )
    stamp.write_text(_prepared_state())


def _prepared_state() -> str:
    """What :func:`prepare` made depends on: the library's sources, the cache's files, Python."""
    lines = [sys.version, importlib.util.find_spec("numba") is not None and _numba_version()]
    for path in sorted(LIBRARY.rglob("*.py")):
        status = path.stat()
        lines.append(f"{path.relative_to(LIBRARY)} {status.st_mtime_ns} {status.st_size}")
    lines += sorted(p.name for p in _numba_cache_files())
    return "\n".join(str(line) for line in lines)


def _numba_version() -> str:
    import numba

    return numba.__version__


def _numba_cache_files() -> list[Path]:
    """numba's cache files, in every ``__pycache__`` of the library (loops/, the top, ...)."""
    return sorted(p for p in LIBRARY.rglob("__pycache__/*") if p.suffix in (".nbi", ".nbc"))


def _copy_numba_cache(target: Path) -> set[str]:
    """Give the sandbox its own copy of the library's compiled loops; return their paths.

    numba keeps them next to the modules that define them (``__pycache__`` in
    ``perceptron_lib/`` and its subpackages, filled by :func:`prepare`), which
    the sandbox cannot write; numba refuses a cache folder it cannot write, so
    it would compile them again in every submission. Each sandbox gets a
    private copy, in the folder numba looks in for each module under
    ``NUMBA_CACHE_DIR``, so that no submission can leave compiled code behind
    for the next one.
    """
    try:
        from numba.core.caching import _CacheLocator
    except ImportError:  # no numba: the loops run as Python
        return set()
    copied = set()
    target.mkdir(parents=True, exist_ok=True)
    os.chmod(target, 0o777)
    for path in _numba_cache_files():
        module_folder = path.parent.parent  # the folder of the module the loop is in
        folder = target / _CacheLocator.get_suitable_cache_subpath(str(module_folder / "x.py"))
        if not folder.exists():
            folder.mkdir(parents=True)
            os.chmod(folder, 0o777)
        shutil.copyfile(path, folder / path.name)
        copied.add(str((folder / path.name).relative_to(target)))
    return copied


def _compiled_inside(target: Path, copied: set[str]) -> int:
    """How many compiled loops the sandbox had to make itself (cache misses)."""
    # By path, not by name: a loop compiled again beside a copy put in the wrong
    # folder has the copy's name.
    return sum(1 for p in target.rglob("*.nbc") if str(p.relative_to(target)) not in copied)


PIDS = Path("/sys/fs/cgroup/pids")  # cgroup v1's process-count controller


def _process_cap(limit: int):
    """A cgroup holding at most ``limit`` processes, or None where none can be made.

    ``prlimit --nproc`` counts the processes of a user id over the whole machine
    (and not at all for root), so the cap that holds is a cgroup's ``pids.max``.
    Its name carries this grader's process id (:func:`own_groups`).
    """
    try:
        prefix = f"{GROUP_PREFIX}{os.getpid()}-{_start_time(os.getpid())}-"
        group = Path(tempfile.mkdtemp(prefix=prefix, dir=PIDS))
        (group / "pids.max").write_text(str(limit))
        return group
    except OSError:
        return None


GROUP_PREFIX = "grading-"


def own_groups() -> list[Path]:
    """The process-cap cgroups this grader made that still exist (none, after each run)."""
    return sorted(PIDS.glob(f"{GROUP_PREFIX}{os.getpid()}-*")) if PIDS.is_dir() else []


def _members(group: Path) -> list[int]:
    try:
        return [int(pid) for pid in (group / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _populated(group: Path) -> bool:
    """Does the cgroup still hold a process? (cgroup v2 says so in cgroup.events.)"""
    try:
        events = (group / "cgroup.events").read_text()
    except OSError:
        return bool(_members(group))
    return "populated 1" in events


def remove_group(group: Path, seconds: float = 30.0) -> bool:
    """Kill every process left in ``group``, wait until it is empty, remove it.

    The sandbox's processes normally end with its process namespace, but a
    process may still be exiting (or, under load, not yet reaped) when the run
    returns: ``rmdir`` then fails with EBUSY. So: kill what is listed, wait for
    the group to be empty, remove it, and try again, for at most ``seconds``.
    Returns whether the group is gone.
    """
    deadline = time.monotonic() + seconds
    while group.exists():
        kill = group / "cgroup.kill"  # cgroup v2: every member at once
        if kill.exists():
            try:
                kill.write_text("1")
            except OSError:
                pass
        for pid in _members(group):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if not _populated(group):
            try:
                group.rmdir()
            except FileNotFoundError:
                return True
            except OSError:
                pass
            else:
                return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), or None if there is none.

    With the process id it names one process: a number used again later has
    another start time.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, after the name in parentheses


def _dead(pid: str, start: str | None) -> bool:
    """Is the grader of this process id (and start time, when known) gone?"""
    now = _start_time(int(pid))
    return now is None or (start is not None and now != start)


RUN_FOLDER = re.compile(r"^grading-run-(\d+)-(\d+)-")
GROUP = re.compile(rf"^{GROUP_PREFIX}(\d+)-(?:(\d+)-)?")


def clean_dead() -> list[str]:
    """Remove the cgroups and work folders that killed graders left; return what was removed.

    Only those whose grader is dead: another grader running at the same time
    keeps its own.
    """
    removed = []
    if PIDS.is_dir():
        for group in PIDS.glob(f"{GROUP_PREFIX}*"):
            match = GROUP.match(group.name)
            if match and _dead(match.group(1), match.group(2)) and remove_group(group, 5.0):
                removed.append(str(group))
    temp = Path(tempfile.gettempdir())
    for folder in temp.glob("grading-run-*"):
        match = RUN_FOLDER.match(folder.name)
        if match and not folder.is_symlink() and _dead(match.group(1), match.group(2)):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(str(folder))
    return removed


@contextmanager
def run_folder():
    """Make the temporary directory a folder of this grader's own, for the time it grades.

    Every work folder (``tempfile``'s, in :mod:`grading.submission` and the
    sandbox check) is then made inside it, and its name says whose it is.
    """
    pid = os.getpid()
    folder = tempfile.mkdtemp(prefix=f"grading-run-{pid}-{_start_time(pid)}-")
    before = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        yield Path(folder)
    finally:
        tempfile.tempdir = before
        shutil.rmtree(folder, ignore_errors=True)


_running: set[subprocess.Popen] = set()
_lock = threading.Lock()
_stopping = threading.Event()


class Stopped(RuntimeError):
    """The grader is stopping (Ctrl-C): no sandbox starts."""


def stop_all() -> None:
    """Kill every running sandbox, and start no other until :func:`resume`."""
    with _lock:
        _stopping.set()
        for process in _running:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def resume() -> None:
    _stopping.clear()


def stopping() -> bool:
    """Is the grader stopping (Ctrl-C)? Then no run's results may be written."""
    return _stopping.is_set()


def start_tracked(start) -> subprocess.Popen:
    """``start()`` a process that :func:`stop_all` kills; none while the grader is stopping.

    For the processes started outside :func:`run` (the fresh sandbox's probe);
    :func:`untrack` it once it has ended.
    """
    with _lock:
        if _stopping.is_set():
            raise Stopped("the grader is stopping")
        process = start()
        _running.add(process)
        return process


def untrack(process: subprocess.Popen) -> None:
    with _lock:
        _running.discard(process)


def _size(folder: Path, limit: int) -> int:
    """Bytes the files under ``folder`` take on disk, counted up to just past ``limit``."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except OSError:
                continue
            if total > limit:
                return total
    return total


def _kill_students(group: Path) -> None:
    """Kill the processes of ``group`` but bubblewrap's and the runner's."""
    for pid in _members(group):
        try:
            executable = os.readlink(f"/proc/{pid}/exe")
            arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if Path(executable).name == "bwrap" or f"{GRADING}/runner.py".encode() in arguments:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@dataclass
class Run:
    returncode: int | None
    timed_out: bool
    log: str
    compiled: int = 0  # loops numba compiled inside the sandbox: its cache missed
    over_quota: bool = False  # stopped: its folder grew past Limits.work_bytes


def run(work: Path, inner: list[str], limits: Limits) -> Run:
    """Run ``inner`` in the sandbox on ``work``; kill it all after ``wall_seconds``.

    A watcher measures ``work`` every quarter second; past ``work_bytes`` it
    kills the student's processes (the kernel and what it started: the runner
    reports a killed kernel), past twice that the whole sandbox. Each file is
    also capped at ``file_bytes``, so the quota is overshot by little.
    """
    (work / "home").mkdir(exist_ok=True)
    (work / "out").mkdir(exist_ok=True)
    os.chmod(work, 0o777)  # nobody, the sandbox's user, writes here
    for path in (work / "home", work / "out"):
        os.chmod(path, 0o777)
    copied = _copy_numba_cache(work / "numba")
    arguments = command(work, inner, limits)  # raises SandboxUnavailable before any cgroup
    group = _process_cap(limits.processes)

    def enter_group():  # in the child, before bwrap starts: all it starts stays inside
        if group is not None:
            (group / "cgroup.procs").write_text(str(os.getpid()))

    over_quota = threading.Event()
    try:
        with _lock:
            if _stopping.is_set():
                raise Stopped("the grader is stopping")
            process = subprocess.Popen(
                arguments,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=enter_group,
            )
            _running.add(process)

        def watch():
            while process.poll() is None:
                size = _size(work, 2 * limits.work_bytes)
                if size > limits.work_bytes:
                    over_quota.set()
                    # The student's processes first: the runner then reports a
                    # killed kernel and the questions before it keep their points.
                    if group is None or size > 2 * limits.work_bytes:
                        try:
                            os.killpg(process.pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                        return
                    _kill_students(group)
                time.sleep(0.25)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            log, _ = process.communicate(timeout=limits.wall_seconds)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            log, _ = process.communicate()
            timed_out = True
        watcher.join()
        with _lock:
            _running.discard(process)
        if stopping():  # killed by stop_all: not a run to judge (nor to keep)
            raise Stopped("the grader is stopping")
    finally:  # also when bwrap could not start: no cgroup is left behind
        if group is not None and not remove_group(group):
            print(f"grading: the cgroup {group} could not be removed (busy)", file=sys.stderr)
    log = log.decode(errors="replace")[-5000:]
    if over_quota.is_set():
        log += (
            f"\ngrading: the notebook's processes were stopped: its folder held more than "
            f"{limits.work_bytes / 2**20:g} MiB (a disk quota)"
        )
    return Run(
        process.returncode,
        timed_out,
        log,
        _compiled_inside(work / "numba", copied),
        over_quota.is_set(),
    )


# Run in the sandbox by :func:`check`: the modules grading needs, found (not
# imported: importing them would cost seconds of every grading run), or one line
# naming those it cannot find and where this Python looked for them.
FIND_MODULES = (
    "import sys\n"
    "from importlib.util import find_spec\n"
    "missing = [m for m in ('perceptron_lib', 'nbclient', 'ipykernel') if find_spec(m) is None]\n"
    "if missing:\n"
    "    print('MISSING', ' '.join(missing), 'IN', ' '.join(p or '.' for p in sys.path))\n"
    "    sys.exit(3)\n"
    "print('sandbox ready')\n"
)


def missing_modules(log: str) -> str | None:
    """The check's line naming the modules the sandbox cannot import, as a sentence.

    >>> print(missing_modules("MISSING perceptron_lib IN /usr/lib/python3.11 /venv/lib"))
    the sandbox cannot import perceptron_lib: its Python looked in /usr/lib/python3.11, /venv/lib
    """
    for line in log.splitlines():
        if line.startswith("MISSING ") and " IN " in line:
            modules, _, paths = line[len("MISSING ") :].partition(" IN ")
            names, places = ", ".join(modules.split()), ", ".join(paths.split())
            return f"the sandbox cannot import {names}: its Python looked in {places}"
    return None


def check(work: Path) -> None:
    """Start the sandbox once; raise :class:`SandboxUnavailable` if it cannot.

    When the sandbox starts but cannot import the library (or nbclient,
    ipykernel), the message names the module, where the sandbox's Python
    looked, and where the library is bound in the sandbox.
    """
    probe = [sys.executable, "-c", FIND_MODULES]
    try:
        result = run(work, probe, Limits(wall_seconds=120))
    except OSError as error:
        raise SandboxUnavailable(f"bubblewrap could not start: {error}") from error
    missing = missing_modules(result.log)
    if missing is not None:
        spec = importlib.util.find_spec("perceptron_lib")
        outside = spec.origin if spec is not None else "nowhere"
        raise SandboxUnavailable(
            f"{missing}. The sandbox sees the library only at {LIBRARY} (bound read-only); "
            f"outside it, this Python imports perceptron_lib from {outside}: install the "
            "library from this folder (make .venv/.installed) so that both agree. "
            "Nothing was graded"
        )
    if result.returncode != 0 or "sandbox ready" not in result.log:
        raise SandboxUnavailable(
            "the bubblewrap sandbox could not start, so nothing was graded "
            f"(exit code {result.returncode}): {result.log.strip()[-500:]}"
        )
