"""Phase kind `exec`: run a program as __main__ and report how it ended."""
import builtins
import sys

from compile_guard import compile_program
from render import exception_info


def _flush():
    """Flushes the program's output; a flush that fails (file-size limit) is the program's exception."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        return None
    except BaseException as error:
        return error


def run(payload, channel, context):
    source = payload['source']
    code, refused = compile_program(source, payload.get('filename', 'main.py'))
    if refused:
        channel.send(refused)
        return
    namespace = {'__name__': '__main__', '__builtins__': builtins, '__file__': payload.get('filename', 'main.py')}
    try:
        exec(code, namespace)
        error = _flush()
        if error is not None:
            raise error
    except SystemExit as error:
        channel.send({'event': 'exit', 'code': error.code if isinstance(error.code, int) or error.code is None else str(error.code)})
        return
    except BaseException as error:
        info = exception_info(error, True)
        _flush()
        channel.send(dict(info, event='exception'))
        return
    channel.send({'event': 'done'})
