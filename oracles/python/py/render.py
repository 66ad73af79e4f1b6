"""Short, safe renderings of Python values for witnesses and observations."""
import reprlib

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


def show(value, limit=300):
    """repr(value), cut to `limit` characters; never raises (a failing __repr__ is reported instead)."""
    try:
        text = repr(value)
    except BaseException as error:  # a hostile or broken __repr__
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
        return truncate(', '.join(show(a, limit) for a in args), limit)
    return show(args, limit)


def exception_info(error, tb_text=None, limit=2000):
    info = {'type': type(error).__name__, 'message': truncate(str(error), limit)}
    if tb_text is not None:
        info['traceback'] = tail_lines(tb_text, 12, 3000)
    return info


def tail_lines(text, lines, limit):
    parts = text.rstrip('\n').split('\n')
    out = '\n'.join(parts[-lines:])
    if len(out) > limit:
        out = '…' + out[-limit:]
    return out
