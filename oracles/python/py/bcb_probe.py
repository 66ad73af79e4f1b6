"""Phase kind `bcb.probe` (BigCodeBench hardening): import the program (as bcb.run does, into a module
`__test__`) and evaluate each given call text, seeding the random generators first and discarding
what it prints; each outcome is appended to `calls.pkl` in the job folder as soon as it is known, so
a run stopped at its deadline still tells which calls finished (bcb_judge.py reads them)."""
import builtins
import contextlib
import os
import pickle
import random
import sys
import types

import safe_pickle
from compile_guard import compile_program
from render import exception_info

RECORDS = 'calls.pkl'


class _Discard:
    """A stdout that keeps nothing (a probed call may print without bound)."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


def _seed(seed):
    random.seed(seed)
    numpy = sys.modules.get('numpy')
    if numpy is not None:
        numpy.random.seed(seed)


def run_probe(payload, channel, context):
    code, refused = compile_program(payload['program'], '__test__.py')
    if refused:
        channel.send(refused)
        return
    builtins.exit = None
    builtins.quit = None
    module = types.ModuleType('__test__')
    module.__dict__.update({'__builtins__': builtins, '__file__': '__test__.py', 'sys': sys, 'os': os, 'environ': os.environ})
    sink = _Discard()
    try:
        with contextlib.redirect_stdout(sink):
            exec(code, module.__dict__)
    except BaseException as error:
        channel.send(dict(exception_info(error, True), event='program-error'))
        return
    sys.modules['__test__'] = module
    budget = int(payload.get('maxResultBytes', 1 << 20))
    fd = os.open(os.path.join(context['folder'], RECORDS), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'wb') as out:
        for call in payload['calls']:
            _seed(int(payload.get('seed', 0)))
            try:
                with contextlib.redirect_stdout(sink):
                    value = eval(compile(call, '<probe>', 'eval'), dict(module.__dict__))
                try:
                    record = ('v', safe_pickle.dump_value(value, budget))
                except safe_pickle.TooLarge:
                    record = ('x', ('ResultTooLarge', 'the result is over %d bytes pickled' % budget))
            except BaseException as error:
                info = exception_info(error, False)
                record = ('x', (info['type'], info['message']))
            pickle.dump(record, out, protocol=4)
            out.flush()
    channel.send({'event': 'done'})


def run(payload, channel, context):
    run_probe(payload, channel, context)
