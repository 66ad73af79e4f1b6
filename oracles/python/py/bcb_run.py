"""Phase kind `bcb.run`: BigCodeBench's execution. Program = the solution, a newline, then the task's
`test` module, compiled as `__test__.py` and executed into a fresh module `__test__`; `TestCases`
is loaded with unittest's loader and run once. Each test's result is streamed as it finishes, so a
run killed at its deadline still tells which tests passed.

Guards as in the original's reliability_guard (exit/quit disabled, faulthandler off); beyond it, a
check that the program did not patch the test framework itself (reported as `tampered`)."""
import builtins
import faulthandler
import os
import sys
import time
import types
import unittest

import compile_guard
from render import exception_info, format_traceback, message_of, truncate

GUARDED = (
    (unittest.TestCase, ('run', '__call__', 'assertEqual', 'assertTrue', 'assertFalse', 'assertRaises', 'assertIn',
                         'assertIsNone', 'assertIsInstance', 'assertAlmostEqual', 'assertListEqual', 'assertDictEqual',
                         'assertCountEqual', 'fail', 'debug', 'subTest', '_callTestMethod')),
    (unittest.TestResult, ('addSuccess', 'addFailure', 'addError', 'addSkip', 'startTest', 'stopTest', 'wasSuccessful')),
    (unittest.TestSuite, ('run', '__call__', '_handleClassSetUp')),
    (unittest.TestLoader, ('loadTestsFromTestCase', 'getTestCaseNames')),
)


def _snapshot():
    return {(cls.__name__, name): cls.__dict__.get(name) for cls, names in GUARDED for name in names}


def _tampered(before):
    after = _snapshot()
    return sorted('unittest.%s.%s' % key for key in before if before[key] is not after[key])


def _method(test):
    return test.id().split('.')[-1]


class StreamingResult(unittest.TestResult):
    """Reports each test's outcome over the channel the moment it is known."""

    def __init__(self, channel):
        super().__init__()
        self.channel = channel
        self.started = None

    def startTest(self, test):
        super().startTest(test)
        self.started = time.monotonic()
        self.channel.send({'event': 'start', 'test': _method(test)})

    def _ms(self):
        return round((time.monotonic() - self.started) * 1000.0, 3) if self.started else None

    def addSuccess(self, test):
        super().addSuccess(test)
        self.channel.send({'event': 'result', 'test': _method(test), 'outcome': 'pass', 'ms': self._ms()})

    def _problem(self, test, err, outcome):
        # Formatted here with bounds: unittest's own formatting would first build the whole message
        # and every frame, whatever their size (a model's exception may carry gigabytes).
        value = err[1]
        trace = format_traceback(value, 14, 3000, skip=('/unittest/',))
        self.channel.send({
            'event': 'result', 'test': _method(test), 'outcome': outcome, 'ms': self._ms(),
            'type': type(value).__name__, 'message': message_of(value, 2000), 'traceback': trace,
        })
        return trace

    def addFailure(self, test, err):
        self.failures.append((test, self._problem(test, err, 'fail')))

    def addError(self, test, err):
        self.errors.append((test, self._problem(test, err, 'error')))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.channel.send({'event': 'result', 'test': _method(test), 'outcome': 'skip', 'reason': truncate(str(reason), 300)})

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.channel.send({'event': 'result', 'test': _method(test), 'outcome': 'pass', 'expectedFailure': True})

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.channel.send({'event': 'result', 'test': _method(test), 'outcome': 'fail', 'type': 'UnexpectedSuccess', 'message': 'unexpected success'})


def _line_offset_error(refused, program_lines):
    line = refused.get('line')
    return line is not None and line > program_lines


def run(payload, channel, context):
    program = payload['program']
    test = payload['test']
    full = program + '\n' + test
    code, refused = compile_guard.compile_program(full, '__test__.py')
    if refused:
        # Whose fault: the program's when it does not compile alone (compiled only now: a big
        # program would otherwise be compiled twice), else the test module's when the error is in it.
        _, own = compile_guard.compile_program(program, '__test__.py')
        if own:
            refused = own
        elif refused['event'] == 'syntax-error' and _line_offset_error(refused, program.count('\n') + 1):
            refused = {'event': 'task-error', 'type': refused['type'], 'message': 'the test module does not compile: %s' % refused['message']}
        channel.send(refused)
        return
    faulthandler.disable()
    builtins.exit = None
    builtins.quit = None
    module = types.ModuleType('__test__')
    module.__dict__.update({'__builtins__': builtins, '__file__': '__test__.py', '__package__': None, '__doc__': None,
                            'sys': sys, 'os': os, 'environ': os.environ})
    guard = _snapshot()
    started = time.monotonic()
    try:
        exec(code, module.__dict__)
    except BaseException as error:
        channel.send(dict(exception_info(error, True), event='program-error'))
        return
    sys.modules['__test__'] = module
    changed = _tampered(guard)
    if changed:
        channel.send({'event': 'tampered', 'message': 'the program replaced ' + ', '.join(changed)})
        return
    cases = module.__dict__.get('TestCases')
    if not (isinstance(cases, type) and issubclass(cases, unittest.TestCase)):
        channel.send({'event': 'task-error', 'message': 'the test module defines no TestCases class'})
        return
    own = dict(vars(cases))
    suite = unittest.TestLoader().loadTestsFromTestCase(cases)
    names = [_method(t) for t in suite]
    channel.send({'event': 'tests', 'names': names})
    result = StreamingResult(channel)
    suite.run(result)
    # Methods of TestCases replaced after loading (unittest itself adds bookkeeping attributes: ignored).
    replaced = sorted('TestCases.%s' % k for k, v in own.items() if callable(v) and vars(cases).get(k) is not v)
    changed = _tampered(guard) + replaced
    if changed:
        channel.send({'event': 'tampered', 'message': 'the program replaced ' + ', '.join(changed)})
        return
    channel.send({'event': 'done', 'testsRun': result.testsRun, 'ms': round((time.monotonic() - started) * 1000.0, 3)})
