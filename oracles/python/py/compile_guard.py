"""Compiling a candidate program and naming why it did not compile: `too-complex` when CPython
refuses it for its size or depth (nesting, indentation, block or integer-literal limits, recursion
or memory exhausted while parsing), `syntax` for anything else that is not Python (a syntax error, a
NUL byte, text that is not valid Unicode)."""
import ast
import re

# What CPython says when a limit, not the grammar, stops it.
LIMIT_MESSAGES = re.compile(
    r'too many nested parentheses|too many levels of indentation|too many statically nested blocks|'
    r'Exceeds the limit \(\d+( digits)?\) for integer string conversion|too many nested f-strings|'
    r'expression too deeply nested|too many (arguments|expressions) in|parser stack overflow|too complex'
)

LIMIT_ERRORS = (RecursionError, MemoryError, OverflowError)
NOT_PYTHON_ERRORS = (SyntaxError, ValueError, UnicodeError)


def refusal(error):
    """The event for a program that did not compile: kind `too-complex` or `syntax`, with the message."""
    message = str(error) or type(error).__name__
    kind = 'too-complex' if isinstance(error, LIMIT_ERRORS) or LIMIT_MESSAGES.search(message) else 'syntax'
    event = {'event': 'too-complex' if kind == 'too-complex' else 'syntax-error', 'type': type(error).__name__,
             'message': message[:2000]}
    if kind == 'too-complex' and isinstance(error, LIMIT_ERRORS):
        event['message'] = '%s while compiling the program (it is too big or too deeply nested)' % type(error).__name__
    line = getattr(error, 'lineno', None)
    if isinstance(line, int):
        event['line'] = line
    return event


def compile_program(source, filename):
    """(code, None) when `source` compiles, else (None, the refusal event)."""
    try:
        return compile(source, filename, 'exec'), None
    except (LIMIT_ERRORS + NOT_PYTHON_ERRORS) as error:
        return None, refusal(error)


def parse_program(source, filename):
    """(tree, None) when `source` parses, else (None, the refusal event)."""
    try:
        return ast.parse(source, filename), None
    except (LIMIT_ERRORS + NOT_PYTHON_ERRORS) as error:
        return None, refusal(error)
