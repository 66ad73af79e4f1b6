"""Phase kind `bcb.observe` (for test-time refinement): import the program, check its entry point,
and run the docstring examples of the task's prompt, reporting what they print or return — without
comparing anything to the reference or running the hidden tests."""
import ast
import builtins
import contextlib
import doctest
import inspect
import io
import sys
import types

from compile_guard import compile_program
from render import exception_info, show, truncate


def _docstring_examples(prompt, entry_point):
    try:
        tree = ast.parse(prompt)
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry_point:
            doc = ast.get_docstring(node) or ''
            return [example.source for example in doctest.DocTestParser().get_examples(doc)]
    return []


def _run_example(source, namespace):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        try:
            try:
                code = compile(source, '<example>', 'eval')
                value = eval(code, namespace)
                if value is not None:
                    print(show(value, 600))
            except SyntaxError:
                exec(compile(source, '<example>', 'exec'), namespace)
        except BaseException as error:
            return {'source': source.rstrip('\n'), 'output': truncate(buffer.getvalue(), 600), 'raised': exception_info(error)}
    return {'source': source.rstrip('\n'), 'output': truncate(buffer.getvalue(), 600)}


def run(payload, channel, context):
    program = payload['program']
    entry = payload.get('entryPoint', 'task_func')
    code, refused = compile_program(program, 'solution.py')
    if refused:
        channel.send(refused)
        return
    module = types.ModuleType('solution')
    module.__dict__['__builtins__'] = builtins
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, module.__dict__)
    except BaseException as error:
        channel.send(dict(exception_info(error, True), event='program-error'))
        return
    function = module.__dict__.get(entry)
    if not callable(function):
        channel.send({'event': 'program-error', 'type': 'NameError', 'message': '%s is not defined by the program' % entry})
        return
    try:
        signature = '%s%s' % (entry, inspect.signature(function))
    except (TypeError, ValueError):
        signature = entry + '(…)'
    channel.send({'event': 'imported', 'signature': signature})
    namespace = dict(module.__dict__)
    for source in _docstring_examples(payload.get('prompt', ''), entry)[: payload.get('maxExamples', 5)]:
        channel.send(dict(_run_example(source, namespace), event='example'))
    sys.stdout.flush()
    channel.send({'event': 'done'})
