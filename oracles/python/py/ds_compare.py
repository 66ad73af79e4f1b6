"""Phase kind `ds.compare` (the judge): loads the reference's and the candidate's outputs with the
restricted unpickler, compares them case by case, and reports which cases pass and the first
failing ones with input, expected and actual values (truncated). It never runs task code."""
import os
import pickle

import comparator
import safe_pickle
from render import show, show_call, truncate


def _load_items(folder):
    path = os.path.join(folder, 'outputs.pkl')
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, 'rb') as f:
        outer = safe_pickle.RestrictedUnpickler(f).load()
    if not isinstance(outer, list) or not all(isinstance(i, tuple) and len(i) == 2 for i in outer):
        raise ValueError('outputs.pkl does not hold a list of (kind, value) pairs')
    return outer


def _value(item):
    kind, payload = item
    if kind == 'x':
        return ('raised', payload)
    if kind != 'v' or not isinstance(payload, (bytes, bytearray)):
        raise ValueError('unknown output item')
    return ('value', safe_pickle.loads(bytes(payload)))


def _load_inputs(folder):
    try:
        fd = os.open(os.path.join(folder, 'inputs.pkl'), os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, 'rb') as f:
            data = safe_pickle.RestrictedUnpickler(f).load()
        return data if isinstance(data, dict) and isinstance(data.get('items'), list) else None
    except (OSError, ValueError, pickle.UnpicklingError, EOFError):
        return None


def _show_input(inputs, index):
    """The call's arguments as written: `x` for one parameter, `a, b` for several."""
    if inputs is None or index >= len(inputs['items']):
        return None
    try:
        case = safe_pickle.loads(inputs['items'][index])
    except BaseException as error:
        return '<input could not be shown: %s>' % type(error).__name__
    if safe_pickle.is_opaque(case):
        return case[2]
    return show_call(case, inputs.get('single', True), 300)


def _shown(decoded):
    kind, value = decoded
    if kind == 'raised':
        return 'raised %s: %s' % (value[0], truncate(str(value[1]), 200))
    if safe_pickle.is_opaque(value):
        return value[2]
    return show(value, 300)


def run(payload, channel, context):
    gold_folder = context['inputs'][payload.get('gold', 'gold')]
    cand_folder = context['inputs'][payload.get('candidate', 'candidate')]
    options = payload.get('options', {})
    max_witnesses = payload.get('maxWitnesses', 2)
    try:
        gold = _load_items(gold_folder)
    except (OSError, ValueError, pickle.UnpicklingError, EOFError) as error:
        channel.send({'event': 'judge-error', 'side': 'reference', 'message': '%s: %s' % (type(error).__name__, error)})
        return
    inputs = _load_inputs(gold_folder)
    try:
        candidate = _load_items(cand_folder)
    except FileNotFoundError:
        channel.send({'event': 'compared', 'total': len(gold), 'pass': [False] * len(gold), 'missing': True, 'witnesses': [], 'candidateRaised': []})
        return
    except BaseException as error:
        channel.send({'event': 'compared', 'total': len(gold), 'pass': [False] * len(gold), 'unreadable': '%s: %s' % (type(error).__name__, truncate(str(error), 300)),
                      'witnesses': [], 'candidateRaised': []})
        return
    results = []
    witnesses = []
    gold_raised = []
    candidate_raised = []
    for index, gold_item in enumerate(gold):
        expected = _value(gold_item)
        if expected[0] == 'raised':
            gold_raised.append({'index': index, 'type': expected[1][0], 'message': truncate(str(expected[1][1]), 300)})
            results.append(False)
            continue
        if index >= len(candidate):
            results.append(False)
            reason = 'no output (the candidate stopped after %d cases)' % len(candidate)
            actual = None
        else:
            try:
                actual = _value(candidate[index])
            except BaseException as error:
                actual = ('value', (safe_pickle.OPAQUE, 'unreadable', '%s: %s' % (type(error).__name__, error)))
            if actual[0] == 'raised':
                candidate_raised.append(index)
                ok, reason = False, 'raised %s' % actual[1][0]
            elif safe_pickle.is_opaque(actual[1]) and not safe_pickle.is_opaque(expected[1]):
                ok, reason = False, 'the output (%s) is not plain data and cannot be compared' % actual[1][1]
            else:
                ok, reason = comparator.compare(expected[1], actual[1], options)
            results.append(ok)
            if ok:
                continue
        if len(witnesses) < max_witnesses:
            witnesses.append({
                'index': index,
                'input': _show_input(inputs, index),
                'expected': _shown(expected),
                'actual': _shown(actual) if actual is not None else 'no output',
                'reason': truncate(reason or '', 300),
            })
    channel.send({'event': 'compared', 'total': len(gold), 'pass': results, 'witnesses': witnesses,
                  'candidateRaised': candidate_raised, 'goldRaised': gold_raised[:5], 'goldRaisedCount': len(gold_raised),
                  'extraCandidateOutputs': max(0, len(candidate) - len(gold))})
