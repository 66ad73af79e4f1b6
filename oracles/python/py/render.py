"""Short, safe renderings of Python values and exceptions for witnesses and observations: bounded
in size whatever the value, and never raising."""
import reprlib
import traceback

_short = reprlib.Repr()
_short.maxstring = 120
_short.maxother = 120
_short.maxlist = 12
_short.maxtuple = 12
_short.maxdict = 12
_short.maxset = 12
_short.maxlevel = 4


def truncate(text, limit):
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + '…'


def _bounded(value, limit):
    """A cheap stand-in for a value whose full repr would be huge: a slice of a long string or bytes,
    reprlib's summary of a long container. None when repr(value) is safe enough."""
    if isinstance(value, (str, bytes, bytearray)) and len(value) > 4 * limit:
        return repr(value[:limit]) + '…'
    if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > 1000:
        return _short.repr(value)
    return None


def show(value, limit=300):
    """repr(value), cut to `limit` characters; never raises (a failing __repr__ is reported instead)."""
    try:
        text = _bounded(value, limit)
        if text is None:
            text = repr(value)
    except BaseException as error:  # a hostile or broken __repr__, or one too big for memory
        try:
            text = _short.repr(value)
        except BaseException:
            text = '<%s object; repr failed: %s>' % (type(value).__name__, type(error).__name__)
    return truncate(text, limit)


def show_call(args, single, limit=300):
    """The arguments of a call as they would be written: `f(x)` for one parameter, `f(*case)` else."""
    if single:
        return show(args, limit)
    if isinstance(args, (list, tuple)):
        return truncate(', '.join(show(a, limit) for a in args[:50]), limit)
    return show(args, limit)


def message_of(error, limit=2000):
    """str(error) cut to `limit` characters without copying a huge message first; never raises."""
    try:
        args = error.args if isinstance(getattr(error, 'args', None), tuple) else ()
        plain = type(error).__str__ in (BaseException.__str__, KeyError.__str__)
        if plain and len(args) == 1 and isinstance(args[0], (str, bytes)) and len(args[0]) > 4 * limit:
            head = args[0][:limit]
            return truncate(repr(head) if isinstance(error, KeyError) or isinstance(head, bytes) else head, limit - 1) + '…'
        return truncate(str(error), limit)
    except BaseException as failure:
        return '<the message could not be shown: %s>' % type(failure).__name__


def format_traceback(error, frames=12, limit=3000, skip=()):
    """The last `frames` frames of the exception's traceback and its message, bounded in size (the
    traceback module would first format a message of any size, and every frame of a deep recursion).
    Frames whose file path contains one of `skip` are left out. Never raises."""
    try:
        entries = traceback.extract_tb(error.__traceback__, limit=-frames * 4)
        entries = [e for e in entries if not any(part in (e.filename or '') for part in skip)][-frames:]
        lines = ['Traceback (most recent call last):']
        for entry in entries:
            lines.append('  File "%s", line %s, in %s' % (truncate(str(entry.filename), 200), entry.lineno, truncate(str(entry.name), 200)))
            if entry.line:
                lines.append('    ' + truncate(entry.line.strip(), 200))
        lines.append('%s: %s' % (type(error).__name__, message_of(error, 500)))
        text = '\n'.join(lines)
    except BaseException as failure:
        text = '%s (the traceback could not be formatted: %s)' % (type(error).__name__, type(failure).__name__)
    return text if len(text) <= limit else '…' + text[-limit:]


def exception_info(error, with_traceback=False, limit=2000):
    """Type, message (bounded) and, if asked, the traceback's tail (bounded) of an exception."""
    info = {'type': type(error).__name__, 'message': message_of(error, limit)}
    if with_traceback:
        info['traceback'] = format_traceback(error)
    return info


def tail_lines(text, lines, limit):
    parts = text.rstrip('\n').split('\n')
    out = '\n'.join(parts[-lines:])
    if len(out) > limit:
        out = '…' + out[-limit:]
    return out
