"""Phase kind `bcb.judge` (BigCodeBench hardening): reads the records of two runs of the reference
(`gold`, `gold-again`) and of the candidate's run over the same calls (bcb_probe.py) with the
restricted unpickler, and compares them with the DSCodeBench comparator; calls on which the
reference raised, stopped, or disagreed with itself are left out. It never runs task code."""
import os

import comparator
import safe_pickle
from bcb_probe import RECORDS
from ds_compare import _shown, _value
from render import truncate


def _records(folder):
    """The records a probe run left (as many as it finished); None when it left no file."""
    try:
        fd = os.open(os.path.join(folder, RECORDS), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    items = []
    with os.fdopen(fd, 'rb') as f:
        while True:
            try:
                item = safe_pickle.RestrictedUnpickler(f).load()
            except EOFError:
                break
            except BaseException:  # a record cut short by the deadline, or not ours
                break
            if not (isinstance(item, tuple) and len(item) == 2):
                break
            try:
                items.append(_value(item))
            except BaseException as error:
                items.append(('value', (safe_pickle.OPAQUE, 'unreadable', '%s: %s' % (type(error).__name__, error))))
    return items


def _same(a, b, options):
    """Do two outcomes agree: both raised the same type, or both returned values the comparator accepts."""
    if a[0] == 'raised' or b[0] == 'raised':
        return a[0] == b[0] and a[1][0] == b[1][0], 'raised %s' % (b[1][0] if b[0] == 'raised' else 'nothing')
    if safe_pickle.is_opaque(a[1]) or safe_pickle.is_opaque(b[1]):
        return _shown(a) == _shown(b), 'the outputs differ'
    return comparator.compare(a[1], b[1], options)


def run(payload, channel, context):
    folders = context['inputs']
    gold, again, candidate = (_records(folders[name]) for name in ('gold', 'gold-again', 'candidate'))
    options = payload.get('options', {})
    total = len(payload.get('calls', []))
    outcomes = []
    for index in range(total):
        if gold is None or again is None or index >= len(gold) or index >= len(again):
            outcomes.append({'status': 'gold-stopped'})
            continue
        expected = gold[index]
        if expected[0] == 'raised':
            outcomes.append({'status': 'gold-raised'})
            continue
        stable, _ = _same(expected, again[index], options)
        if not stable:
            outcomes.append({'status': 'gold-unstable'})
            continue
        if candidate is None or index >= len(candidate):
            outcomes.append({'status': 'candidate-stopped', 'expected': _shown(expected)})
            continue
        actual = candidate[index]
        ok, reason = _same(expected, actual, options)
        if ok:
            outcomes.append({'status': 'same'})
        else:
            actual_type = actual[1][0] if actual[0] == 'raised' else None
            outcomes.append({'status': 'differ', 'expected': _shown(expected), 'actual': _shown(actual),
                             'actualType': actual_type, 'reason': truncate(reason or '', 300)})
    channel.send({'event': 'judged', 'outcomes': outcomes})


