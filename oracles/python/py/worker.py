"""The warm sandbox worker (a "zygote"). It imports the heavy libraries once, then serves requests
from the harness on stdin, one at a time. A request is a list of phases; each phase runs in a
child forked from this pristine process, in a fresh job folder, under its own limits and a
wall-clock deadline, after which every process it left is killed and its folders wiped.

The worker never interprets task data. A phase's payload is read from stdin only after the
previous phase has ended (so the reference program, read for the gold phase, never sits in memory
a candidate phase inherits), handed to the child by fork, then zeroed; what phases report is
relayed byte for byte and zeroed too. The worker makes itself non-dumpable, so a phase cannot
ptrace it or read its memory, environment or descriptors through /proc.

Wire format (stdin): 8 hex digits = header length, the JSON header, then the phase payloads in
phase order. Replies (stdout): `P<i>` lines when phase i starts, then one JSON line describing the
phases, then each phase's output bytes (JSON lines written by the child) back to back.
"""
import ctypes
import json
import os
import resource
import select
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import child  # noqa: E402
import reaper  # noqa: E402
from secure_buffer import SecureBuffer  # noqa: E402

MAX_HEADER = 1 << 20
MAX_PAYLOAD = 256 << 20
PR_SET_DUMPABLE = 4
PR_SET_PDEATHSIG = 1
WATCH_INTERVAL_S = 0.05
PR_SET_CHILD_SUBREAPER = 36


def preload():
    versions = {'python': '.'.join(map(str, sys.version_info[:3]))}
    for name in ('numpy', 'pandas', 'scipy'):
        try:
            module = __import__(name)
            versions[name] = getattr(module, '__version__', 'unknown')
        except Exception:
            versions[name] = None
    import unittest  # noqa: F401  (the BigCodeBench phase needs it; warm it too)
    import doctest  # noqa: F401
    import pickle  # noqa: F401
    import kinds

    kinds.warm()
    return versions


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_exact(fd, n):
    out = bytearray()
    while len(out) < n:
        chunk = os.read(fd, n - len(out))
        if not chunk:
            raise EOFError
        out += chunk
    return bytes(out)


def print_cap(limits):
    """The size at which stdout or stderr counts as over its cap: the phase's file-size limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    wanted = int(limits.get('fileSizeBytes') or hard)
    return wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)


def harness_gone(mode):
    """The harness died (its end of our input closed, or the parent-death signal came): end every
    process we started and exit, so that nothing outlives it."""
    try:
        reaper.kill_all(mode)
    finally:
        os._exit(75)


def tail_of(path, limit):
    """The last `limit` bytes of a regular file the phase wrote (never follows links or opens FIFOs)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ''
    try:
        info = os.fstat(fd)
        if not (info.st_mode & 0o170000) == 0o100000:
            return ''
        size = info.st_size
        os.lseek(fd, max(0, size - limit), os.SEEK_SET)
        data = os.read(fd, limit)
        prefix = '…' if size > limit else ''
        return prefix + data.decode('utf-8', 'replace')
    finally:
        os.close(fd)


class Worker:
    def __init__(self, scratch, mode, env, tmpdir):
        self.scratch = scratch
        self.mode = mode
        self.env = env
        # The sandbox's private /tmp (wiped after every phase), or None: then each job folder.
        self.tmpdir = tmpdir
        self.sequence = 0

    def serve(self):
        while True:
            try:
                size = int(read_exact(0, 8), 16)
            except EOFError:
                return
            if size > MAX_HEADER:
                raise RuntimeError('header too large')
            header = json.loads(read_exact(0, size))
            self.handle(header)

    def handle(self, header):
        self.sequence += 1
        phases = header['phases']
        folders = {}
        envelopes = []
        outputs = []
        for index, phase in enumerate(phases):
            folder = os.path.join(self.scratch, 'r%d-%d-%s' % (self.sequence, index, phase['name']))
            os.mkdir(folder, 0o700)
            folders[phase['name']] = folder
            if phase['payload'] > MAX_PAYLOAD:
                raise RuntimeError('payload too large')
            payload = SecureBuffer(phase['payload'] + 1)
            payload.read_exactly(0, phase['payload'])
            write_all(1, b'P%d\n' % index)
            envelope, output = self.run_phase(phase, payload, folder, folders)
            envelopes.append(envelope)
            outputs.append(output)
        for folder in folders.values():
            reaper.wipe_tree(folder)
        head = {'id': header['id'], 'phases': envelopes, 'lengths': [o.length for o in outputs]}
        write_all(1, (json.dumps(head) + '\n').encode())
        for output in outputs:
            write_all(1, output.view())
            output.wipe()

    def run_phase(self, phase, payload, folder, folders):
        limits = phase.get('limits', {})
        # stdout and stderr are files the worker creates and watches: the phase's file-size limit
        # caps them, and a phase that reaches the cap is ended at once (it would only loop on errors).
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        stdio = [os.open(os.path.join(folder, name), flags, 0o600) for name in ('stdout.txt', 'stderr.txt')]
        if self.mode == 'tree' and 'processes' in limits:
            # No user namespace of its own: the kernel counts every process (and thread) of the user
            # against the limit, so the phase gets its number of processes on top of those that exist now.
            limits = dict(limits, processes=int(limits['processes']) + reaper.tasks_of_user(os.getuid()))
        context = {
            'folder': folder,
            'inputs': {name: path for name, path in folders.items() if name != phase['name']},
            'limits': limits,
            'env': self.env,
            'tmpdir': self.tmpdir,
            'stdio': stdio,
            'options': phase.get('options', {}),
        }
        deadline_s = phase['deadlineMs'] / 1000.0
        cap = int(phase.get('maxOutputBytes', 8 << 20))
        read_end, write_end = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            child.run_phase(phase['kind'], payload.view(), context, write_end)
        os.close(write_end)
        payload.wipe()
        output = SecureBuffer()
        try:
            outcome = self.collect(pid, read_end, output, started + deadline_s, cap, stdio, print_cap(limits))
        finally:
            for fd in stdio:
                os.close(fd)
        os.close(read_end)
        wall_ms = (time.monotonic() - started) * 1000.0
        passes = reaper.kill_all(self.mode)
        if self.mode == 'namespace':
            reaper.wipe_contents('/tmp')
            reaper.wipe_contents('/dev/shm')
        envelope = dict(outcome, name=phase['name'], wallMs=round(wall_ms, 3), killPasses=passes)
        if phase.get('capture'):
            envelope['stdoutTail'] = tail_of(os.path.join(folder, 'stdout.txt'), 4096)
            envelope['stderrTail'] = tail_of(os.path.join(folder, 'stderr.txt'), 4096)
        else:
            envelope['stderrTail'] = tail_of(os.path.join(folder, 'stderr.txt'), 1024) if outcome.get('signal') else ''
        return envelope, output

    def collect(self, pid, read_end, output, deadline, cap, stdio, file_cap):
        """Reads the phase's reports until it ends, its deadline passes, it reports too much, or its
        stdout or stderr reaches the file-size cap. Ends the worker if the harness has gone."""
        pidfd = os.pidfd_open(pid)
        reason = None
        exited = False
        status = None
        rusage = None
        open_pipe = True
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        poller.register(read_end, select.POLLIN)
        poller.register(0, 0)  # only POLLHUP: the harness closed our input, so it has died
        printed = [0, 0]
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    reason = 'deadline'
                    break
                ready = dict(poller.poll(min(remaining, WATCH_INTERVAL_S) * 1000.0))
                if ready.get(0, 0) & (select.POLLHUP | select.POLLERR):
                    harness_gone(self.mode)
                printed = [os.fstat(fd).st_size for fd in stdio]
                if max(printed) >= file_cap:
                    reason = 'print-cap'
                    break
                if read_end in ready:
                    if output.read_from(read_end, 65536) == 0:
                        open_pipe = False
                        poller.unregister(read_end)
                    elif output.length > cap:
                        reason = 'output-cap'
                        break
                if pidfd in ready and not exited:
                    exited = True
                    _, status, rusage = os.wait4(pid, 0)
                    break
        finally:
            os.close(pidfd)
        if not exited:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _, status, rusage = os.wait4(pid, 0)
        # Descendants may still hold the result pipe open: end them all, then drain what was written.
        reaper.kill_all(self.mode)
        while open_pipe and output.length <= cap:
            ready, _, _ = select.select([read_end], [], [], 0)
            if not ready or output.read_from(read_end, 65536) == 0:
                break
        printed = [os.fstat(fd).st_size for fd in stdio]
        result = {'deadline': reason == 'deadline', 'outputCap': reason == 'output-cap',
                  'stdoutBytes': printed[0], 'stderrBytes': printed[1],
                  'printCap': ('stdout' if printed[0] >= file_cap else 'stderr') if max(printed) >= file_cap else None}
        if os.WIFEXITED(status):
            result['exitCode'] = os.WEXITSTATUS(status)
            result['signal'] = None
        else:
            result['exitCode'] = None
            result['signal'] = os.WTERMSIG(status)
        result['cpuMs'] = round((rusage.ru_utime + rusage.ru_stime) * 1000.0, 3)
        result['maxRssKb'] = rusage.ru_maxrss
        return result


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    scratch = os.environ.get('WITNESS_SCRATCH', '/sandbox')
    mode = os.environ.get('WITNESS_CLEANUP', 'tree')
    if mode == 'namespace' and len(reaper.others_in_namespace()) > 2:
        # Not a fresh PID namespace after all: never use kill(-1) here.
        mode = 'tree'
    # When the parent dies, SIGHUP: clean up and exit (within a namespace its death ends us anyway).
    signal.signal(signal.SIGHUP, lambda *_: harness_gone(mode))
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGHUP, 0, 0, 0)
    if mode == 'tree' and os.getppid() == 1:
        harness_gone(mode)
    env = {k: v for k, v in os.environ.items() if not k.startswith('WITNESS_')}
    tmpdir = os.environ.get('WITNESS_TMPDIR') if mode == 'namespace' else None
    versions = preload()
    # Everything imported so far is moved out of the collector's reach: the garbage collector of a
    # forked phase then never walks (and so never copies) the worker's pages.
    import gc

    gc.collect()
    gc.freeze()
    ready = {'ready': True, 'pid': os.getpid(), 'cleanup': mode, 'versions': versions}
    write_all(1, (json.dumps(ready) + '\n').encode())
    Worker(scratch, mode, env, tmpdir).serve()


if __name__ == '__main__':
    main()
