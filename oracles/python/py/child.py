"""Setting up a forked phase process before any task code runs: its own session, a fresh job
folder as working directory and HOME (TMPDIR: the sandbox's private /tmp, else the folder), stdin from /dev/null, stdout/stderr into capped files,
no inherited descriptors except the result channel (fd 3), and the phase's resource limits."""
import json
import os
import resource
import signal
import sys

import render

RESULT_FD = 3

LIMITS = {
    'addressSpaceBytes': resource.RLIMIT_AS,
    'cpuSeconds': resource.RLIMIT_CPU,
    'processes': resource.RLIMIT_NPROC,
    'fileSizeBytes': resource.RLIMIT_FSIZE,
    'openFiles': resource.RLIMIT_NOFILE,
    'stackBytes': resource.RLIMIT_STACK,
}


class Channel:
    """JSON lines to the worker over fd 3. Values that JSON cannot hold are sent as their repr."""

    def __init__(self, fd=RESULT_FD):
        self.fd = fd

    def send(self, message):
        try:
            text = json.dumps(message, default=repr, allow_nan=False)
        except ValueError:
            text = json.dumps(_finite(message), default=repr)
        data = (text + '\n').encode('utf-8', 'replace')
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]


def _finite(value):
    if isinstance(value, float) and (value != value or value in (float('inf'), float('-inf'))):
        return repr(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _redirect_descriptors(stdio, result_w):
    """stdin from /dev/null, stdout/stderr into the files the worker watches, results on fd 3."""
    for fd, source in zip((1, 2), stdio):
        os.dup2(source, fd)
    if result_w != RESULT_FD:
        os.dup2(result_w, RESULT_FD)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.closerange(RESULT_FD + 1, 65536)


def _apply_limits(limits):
    for key, which in LIMITS.items():
        value = limits.get(key)
        if value is None:
            continue
        value = int(value)
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY and value > hard:
            value = hard
        resource.setrlimit(which, (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _environment(folder, env, tmpdir):
    os.environ.clear()
    os.environ.update(env)
    os.environ['HOME'] = folder
    os.environ['TMPDIR'] = tmpdir or folder
    os.environ['PWD'] = folder
    import tempfile

    tempfile.tempdir = None


def run_phase(kind, payload_buf, context, result_w):
    """Runs one phase in this (already forked) process and exits; never returns."""
    code = 0
    try:
        os.setsid()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGALRM):
            signal.signal(sig, signal.SIG_DFL)
        folder = context['folder']
        _redirect_descriptors(context['stdio'], result_w)
        os.chdir(folder)
        _environment(folder, context['env'], context.get('tmpdir'))
        sys.stdin = open(os.devnull)
        _apply_limits(context['limits'])
        payload = json.loads(bytes(payload_buf)) if len(payload_buf) else {}
        import kinds

        kinds.run(kind, payload, Channel(), context)
    except BaseException as error:  # the harness itself failed: report it, never hide it
        code = 70
        text = render.format_traceback(error, 20, 4000)
        try:
            os.write(2, text[-4000:].encode('utf-8', 'replace'))
        except BaseException:
            pass
        try:
            Channel().send({
                'event': 'harness-error',
                'type': type(error).__name__,
                'message': render.message_of(error, 2000),
                'traceback': text[-4000:],
            })
        except BaseException:
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)
