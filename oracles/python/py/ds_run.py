"""Phase kind `ds.run`: DSCodeBench's driver. The code (rewritten to pin random_state), then the
task's test script, run in one namespace; then the seed preamble (random, numpy, torch, tensorflow
seeded with 42), then `test_case_input_generator(200)`, then the last top-level function of the
code on each case (`f(case)` with one parameter, else `f(*case)`). Outputs are pickled one by one
into `outputs.pkl` in the job folder for the judge phase; exceptions are recorded per case."""
import builtins
import inspect
import pickle
import random
import sys
import time
import traceback

import domain
import ds_rewrite
import safe_pickle
from render import exception_info, show, show_call


def seed_everything(seed):
    random.seed(seed)
    numpy = sys.modules.get('numpy')
    if numpy is not None:
        numpy.random.seed(seed)
    torch = sys.modules.get('torch')
    if torch is not None:
        torch.manual_seed(seed)
    tensorflow = sys.modules.get('tensorflow')
    if tensorflow is not None:
        tensorflow.random.set_seed(seed)


def _generate(namespace, seed, n, channel):
    generator = namespace.get('test_case_input_generator')
    if not callable(generator):
        channel.send({'event': 'task-error', 'message': 'the test script defines no test_case_input_generator(n)'})
        return None
    seed_everything(seed)
    try:
        cases = list(generator(n))
    except BaseException as error:
        channel.send(dict(exception_info(error, traceback.format_exc()), event='task-error',
                          message='test_case_input_generator(%d) raised %s: %s' % (n, type(error).__name__, error)))
        return None
    return cases


def _base_cases(payload, namespace, channel):
    mode = payload['inputs']
    if mode['kind'] == 'values':
        cases = [domain.decode(v) for v in mode['values']]
        seed_everything(payload.get('seed', 42))
        return cases
    return _generate(namespace, mode.get('seed', 42), mode.get('n', 200), channel)


def _extra_cases(payload, namespace, channel):
    """Cases added by hardening: other generator seeds (seed, n, index) or given values."""
    cases = []
    generated = {}
    for spec in payload.get('extra', []):
        if spec['kind'] == 'values':
            cases.append(domain.decode(spec['value']))
            continue
        key = (spec['seed'], spec['n'])
        if key not in generated:
            generated[key] = _generate(namespace, spec['seed'], spec['n'], channel)
            if generated[key] is None:
                return None
        batch = generated[key]
        if spec['index'] >= len(batch):
            channel.send({'event': 'task-error', 'message': 'extra case %r is out of range' % (spec,)})
            return None
        cases.append(batch[spec['index']])
    return cases


class _Calls:
    """Calls the function on cases, recording pickled outputs or exceptions per case."""

    def __init__(self, function, single, channel, observe):
        self.function = function
        self.single = single
        self.channel = channel
        self.observe = observe
        self.items = []
        self.first_error = None

    def run(self, cases):
        for case in cases:
            index = len(self.items)
            try:
                value = self.function(case) if self.single else self.function(*case)
                self.items.append(('v', safe_pickle.dump_value(value)))
                if self.observe:
                    self.channel.send({'event': 'observed', 'index': index, 'input': show_call(case, self.single, 300), 'output': show(value, 600)})
            except BaseException as error:
                info = exception_info(error, traceback.format_exc())
                self.items.append(('x', (info['type'], info['message'])))
                if self.first_error is None:
                    self.first_error = dict(info, index=index)
                if self.observe:
                    self.channel.send({'event': 'observed', 'index': index, 'input': show_call(case, self.single, 300), 'raised': info})


def run(payload, channel, context):
    seed = payload.get('seed', 42)
    try:
        code, tree, pinned = ds_rewrite.rewrite(payload['code'], seed, payload.get('forceRandomState', True), 'solution.py')
    except SyntaxError as error:
        channel.send({'event': 'syntax-error', 'type': 'SyntaxError', 'message': str(error), 'line': error.lineno})
        return
    entry = ds_rewrite.last_function_name(tree)
    if entry is None:
        channel.send({'event': 'program-error', 'type': 'NameError', 'message': 'the code defines no top-level function for the driver to call'})
        return
    namespace = {'__name__': '__main__', '__builtins__': builtins, '__file__': 'solution.py'}
    try:
        exec(code, namespace)
    except BaseException as error:
        channel.send(dict(exception_info(error, traceback.format_exc()), event='program-error'))
        return
    try:
        exec(compile(payload['testScript'], 'test_script.py', 'exec'), namespace)
    except BaseException as error:
        channel.send(dict(exception_info(error, traceback.format_exc()), event='task-error',
                          message='the test script failed: %s: %s' % (type(error).__name__, error)))
        return
    function = namespace.get(entry)
    if not callable(function):
        channel.send({'event': 'program-error', 'type': 'TypeError', 'message': '%s is not callable after running the code' % entry})
        return
    try:
        single = len(inspect.signature(function).parameters) == 1
    except (TypeError, ValueError):
        single = False
    cases = _base_cases(payload, namespace, channel)
    if cases is None:
        return
    channel.send({'event': 'started', 'entry': entry, 'single': single, 'cases': len(cases), 'pinnedCalls': pinned})
    record = payload.get('recordInputs')
    recorded = [safe_pickle.dump_value(c) for c in cases] if record else None
    schema = domain.infer(cases, single) if payload.get('describeDomain') else None
    observe = payload.get('observe', 0)
    calls = _Calls(function, single, channel, observe)
    started = time.monotonic()
    calls.run(cases[:observe] if observe else cases)
    if not observe and payload.get('extra'):
        extra = _extra_cases(payload, namespace, channel)
        if extra is None:
            return
        if recorded is not None:
            recorded.extend(safe_pickle.dump_value(c) for c in extra)
        seed_everything(seed)
        calls.run(extra)
    ms = (time.monotonic() - started) * 1000.0
    if recorded is not None:
        # The judge shows the failing inputs; it reads them from here (pickled before the calls,
        # so a function that mutates its arguments does not change what is shown).
        with open('inputs.pkl', 'wb') as f:
            pickle.dump({'single': single, 'items': recorded}, f, protocol=4)
    if payload.get('describeDomain'):
        channel.send({'event': 'inputs', 'schema': schema})
    if not observe:
        with open('outputs.pkl', 'wb') as f:
            pickle.dump(calls.items, f, protocol=4)
    items = calls.items
    channel.send({'event': 'done', 'cases': len(items), 'raised': sum(1 for k, _ in items if k == 'x'),
                  'firstError': calls.first_error, 'callMs': round(ms, 3)})
