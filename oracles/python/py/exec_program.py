"""Phase kind `exec`: run a program as __main__ and report how it ended."""
import builtins
import sys
import traceback

from render import exception_info


def run(payload, channel, context):
    source = payload['source']
    try:
        code = compile(source, payload.get('filename', 'main.py'), 'exec')
    except SyntaxError as error:
        channel.send({'event': 'syntax-error', 'type': type(error).__name__, 'message': str(error), 'line': error.lineno})
        return
    namespace = {'__name__': '__main__', '__builtins__': builtins, '__file__': payload.get('filename', 'main.py')}
    try:
        exec(code, namespace)
    except SystemExit as error:
        channel.send({'event': 'exit', 'code': error.code if isinstance(error.code, int) else str(error.code)})
        return
    except BaseException as error:
        sys.stdout.flush()
        channel.send(dict(exception_info(error, traceback.format_exc()), event='exception'))
        return
    sys.stdout.flush()
    channel.send({'event': 'done'})
