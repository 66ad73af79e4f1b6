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

import compile_guard
import domain
import ds_rewrite
import safe_pickle
import surrogates
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
        info = exception_info(error, True)
        channel.send(dict(info, event='task-error',
                          message='test_case_input_generator(%d) raised %s: %s' % (n, info['type'], info['message'])))
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


DEFAULT_MAX_RESULT_BYTES = 32 << 20


class ResultsTooLarge(Exception):
    """The pickled outputs (or inputs) of a run went over its byte budget."""

    def __init__(self, what, index, limit):
        super().__init__(what, index, limit)
        self.what = what
        self.index = index
        self.limit = limit

    def event(self):
        where = 'on generated input #%d' % (self.index + 1)
        return {'event': 'too-large', 'index': self.index,
                'message': 'the %s %s are over the %s cap on the pickled results of a run (maxResultBytes), or too large to serialise' % (
                    self.what, where, _mib(self.limit))}


def _mib(n):
    return '%d MiB' % (n >> 20) if n % (1 << 20) == 0 else '%d bytes' % n


class _Budget:
    """Bytes left for the pickled values of one run."""

    def __init__(self, limit, what):
        self.limit = limit
        self.left = limit
        self.what = what

    def dump(self, value, index):
        try:
            data = safe_pickle.dump_value(value, self.left)
        except safe_pickle.TooLarge:
            raise ResultsTooLarge(self.what, index, self.limit)
        self.left -= len(data)
        return data


class _Calls:
    """Calls the function on cases, recording pickled outputs or exceptions per case."""

    def __init__(self, function, single, channel, observe, budget):
        self.function = function
        self.single = single
        self.channel = channel
        self.observe = observe
        self.budget = budget
        self.items = []
        self.first_error = None

    def run(self, cases):
        for case in cases:
            index = len(self.items)
            try:
                value = self.function(case) if self.single else self.function(*case)
            except BaseException as error:
                info = exception_info(error, True)
                self.items.append(('x', (info['type'], info['message'])))
                if self.first_error is None:
                    self.first_error = dict(info, index=index)
                if self.observe:
                    self.channel.send({'event': 'observed', 'index': index, 'input': show_call(case, self.single, 300), 'raised': info})
                continue
            self.items.append(('v', self.budget.dump(surrogates.to_plain(value), index)))
            if self.observe:
                self.channel.send({'event': 'observed', 'index': index, 'input': show_call(case, self.single, 300), 'output': show(value, 600)})


def run(payload, channel, context):
    seed = payload.get('seed', 42)
    try:
        code, tree, pinned = ds_rewrite.rewrite(payload['code'], seed, payload.get('forceRandomState', True), 'solution.py')
    except (compile_guard.LIMIT_ERRORS + compile_guard.NOT_PYTHON_ERRORS) as error:
        channel.send(compile_guard.refusal(error))
        return
    entry = ds_rewrite.last_function_name(tree)
    if entry is None:
        channel.send({'event': 'program-error', 'type': 'NameError', 'message': 'the code defines no top-level function for the driver to call'})
        return
    namespace = {'__name__': '__main__', '__builtins__': builtins, '__file__': 'solution.py'}
    try:
        exec(code, namespace)
    except BaseException as error:
        channel.send(dict(exception_info(error, True), event='program-error'))
        return
    try:
        exec(compile(payload['testScript'], 'test_script.py', 'exec'), namespace)
    except BaseException as error:
        info = exception_info(error, True)
        channel.send(dict(info, event='task-error', message='the test script failed: %s: %s' % (info['type'], info['message'])))
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
    try:
        _drive(payload, namespace, channel, function, single, cases, seed)
    except ResultsTooLarge as error:
        channel.send(error.event())


def _drive(payload, namespace, channel, function, single, cases, seed):
    """Calls the function on every case and writes the outputs (and, for the reference, the inputs)
    for the judge, within the run's byte budget (maxResultBytes, for outputs and inputs each)."""
    limit = int(payload.get('maxResultBytes') or DEFAULT_MAX_RESULT_BYTES)
    inputs_budget = _Budget(limit, 'inputs')
    record = payload.get('recordInputs')
    recorded = [inputs_budget.dump(c, i) for i, c in enumerate(cases)] if record else None
    schema = domain.infer(cases, single) if payload.get('describeDomain') else None
    observe = payload.get('observe', 0)
    calls = _Calls(function, single, channel, observe, _Budget(limit, 'outputs'))
    started = time.monotonic()
    calls.run(cases[:observe] if observe else cases)
    if not observe and payload.get('extra'):
        extra = _extra_cases(payload, namespace, channel)
        if extra is None:
            return
        if recorded is not None:
            recorded.extend(inputs_budget.dump(c, len(cases) + i) for i, c in enumerate(extra))
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
