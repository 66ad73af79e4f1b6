"""Ending every process a phase left behind, and wiping the folders it could write.

Two modes. `namespace`: the worker runs in its own PID namespace (bwrap, docker), so
`kill(-1, SIGKILL)` reaches every process in the sandbox except the namespace's init and the worker
itself. `tree` (the process backend, no namespace): only the worker's descendants are killed,
found through /proc, never with kill(-1), which would reach other processes of the same user.
"""
import errno
import os
import shutil
import signal
import stat
import time

SELF = os.getpid()


def _pids():
    out = []
    for name in os.listdir('/proc'):
        if name.isdigit():
            out.append(int(name))
    return out


def _parent_of(pid):
    try:
        with open('/proc/%d/stat' % pid, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    # The command name may contain spaces and parentheses: the fields after the last ')' are fixed.
    rest = data[data.rfind(b')') + 2 :].split()
    try:
        return int(rest[1])
    except (IndexError, ValueError):
        return None


def descendants(root=SELF):
    """Pids of every living descendant of `root` (by walking parent links in /proc)."""
    parents = {}
    for pid in _pids():
        ppid = _parent_of(pid)
        if ppid is not None:
            parents[pid] = ppid
    found = set()
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if pid not in found and (ppid == root or ppid in found):
                found.add(pid)
                changed = True
    return sorted(found)


def tasks_of_user(uid):
    """How many tasks (processes and their threads) have this real uid now: RLIMIT_NPROC counts them
    all, outside a user namespace."""
    count = 0
    for pid in _pids():
        try:
            with open('/proc/%d/status' % pid, 'rb') as f:
                fields = dict(line.split(b':', 1) for line in f if line.startswith((b'Uid:', b'Threads:')))
            if int(fields[b'Uid'].split()[0]) == uid:
                count += int(fields.get(b'Threads', b'1').strip())
        except (OSError, ValueError, KeyError, IndexError):
            pass
    return count


def others_in_namespace():
    return [p for p in _pids() if p not in (1, SELF)]


def reap():
    """Collects every exited child (the worker is a child subreaper, so orphans come here too)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_all(mode):
    """Kills every process the phases started, until none is left; returns how many passes it took."""
    for attempt in range(1, 2001):
        if mode == 'namespace':
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
            reap()
            left = others_in_namespace()
        else:
            left = descendants()
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            reap()
            left = descendants()
        if not left:
            return attempt
        # Zombies whose parent is not us disappear once their (killed) parent is reaped.
        time.sleep(0.0005 if attempt < 50 else 0.005)
    raise RuntimeError('processes survived 2000 kill passes: %r' % (left,))


def _make_removable(path):
    try:
        os.chmod(path, stat.S_IRWXU, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass


def wipe_tree(path):
    """Removes a folder and everything in it, whatever permissions the phase left (never follows links)."""
    if not os.path.lexists(path):
        return

    def onerror(_func, failed, _exc):
        parent = os.path.dirname(failed)
        _make_removable(parent)
        _make_removable(failed)
        try:
            if os.path.isdir(failed) and not os.path.islink(failed):
                shutil.rmtree(failed, onerror=None)
            else:
                os.unlink(failed)
        except FileNotFoundError:
            pass

    _make_removable(path)
    for _ in range(3):
        try:
            shutil.rmtree(path, onerror=onerror)
        except FileNotFoundError:
            return
        except OSError as error:
            if error.errno not in (errno.ENOTEMPTY, errno.EACCES, errno.EPERM):
                raise
        if not os.path.lexists(path):
            return
    if os.path.lexists(path):
        raise RuntimeError('could not wipe ' + path)


def wipe_contents(folder):
    """Empties a folder that is a mount point (the sandbox's /tmp and /dev/shm), leaving the mounts
    in it alone: the sandbox's read-only interpreter folders when the interpreter lives under /tmp
    (a candidate cannot mount anything)."""
    try:
        entries = os.listdir(folder)
        device = os.lstat(folder).st_dev
    except FileNotFoundError:
        return
    except PermissionError:
        _make_removable(folder)
        entries = os.listdir(folder)
        device = os.lstat(folder).st_dev
    for entry in entries:
        path = os.path.join(folder, entry)
        try:
            if os.lstat(path).st_dev != device:
                continue
        except FileNotFoundError:
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            wipe_tree(path)
        else:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
