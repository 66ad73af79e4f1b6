"""Phase kind `bcb.derive` (BigCodeBench hardening): parse the task's test module, collect the calls to
the entry point whose arguments are all literals, and derive new calls from them by small seeded
perturbations of those literals (types kept). Runs no task code: it only parses and unparses."""
import ast
import random

MAX_LITERAL_CHARS = 20000


def _literal_args(call):
    """(args, kwargs) of a call whose arguments are all literals, else None."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return args, kwargs


def _is_entry(func, entry):
    return (isinstance(func, ast.Name) and func.id == entry) or (isinstance(func, ast.Attribute) and func.attr == entry)


def literal_calls(test, entry):
    """The distinct literal-argument calls to `entry` inside the methods of the test module's classes."""
    try:
        tree = ast.parse(test)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    found, seen = [], set()
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if not (isinstance(node, ast.Call) and _is_entry(node.func, entry)):
                continue
            literal = _literal_args(node)
            if literal is None:
                continue
            text = call_text(entry, *literal)
            if text is not None and text not in seen:
                seen.add(text)
                found.append(literal)
    return found


def call_text(entry, args, kwargs):
    """Python source of the call, or None when a value has no literal form (or it is too long)."""
    try:
        parts = [repr(a) for a in args] + ['%s=%r' % (k, v) for k, v in kwargs.items()]
        text = '%s(%s)' % (entry, ', '.join(parts))
        if len(text) > MAX_LITERAL_CHARS:
            return None
        # Only values whose repr reads back as a literal (not inf, nan or objects).
        call = ast.parse(text, mode='eval').body
        for node in list(call.args) + [k.value for k in call.keywords]:
            ast.literal_eval(node)
        return text
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, AttributeError, IndexError):
        return None


def _string(rng, s):
    choice = rng.randrange(5)
    if choice == 0 or not s:
        return '' if s else rng.choice(['a', 'x', ' ', '0'])
    if choice == 1:
        return s[:-1]
    if choice == 2:
        return s + rng.choice(s)
    if choice == 3:
        i = rng.randrange(len(s))
        return s[:i] + rng.choice('abcxyzABC 019,.-_') + s[i + 1:]
    return s.upper() if s.lower() == s else s.lower()


def _sequence(rng, items):
    choice = rng.randrange(5)
    if choice == 0 and items:
        return items[:-1]
    if choice == 1 and items:
        return items + [perturb(rng, rng.choice(items))]
    if choice == 2 and len(items) > 1:
        shuffled = list(items)
        rng.shuffle(shuffled)
        return shuffled
    if choice == 3 or not items:
        return [] if items else items
    i = rng.randrange(len(items))
    return items[:i] + [perturb(rng, items[i])] + items[i + 1:]


def perturb(rng, value):
    """A small edit of a literal value of the same type (the value itself when none applies)."""
    if isinstance(value, bool) or value is None:
        return (not value) if isinstance(value, bool) else value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, value * 2, 0, -value if value else -1])
    if isinstance(value, float):
        return rng.choice([value + 1.0, value - 0.5, value * 2.0, 0.0, -value if value else -1.0, value / 3.0])
    if isinstance(value, str):
        return _string(rng, value)
    if isinstance(value, bytes):
        return _string(rng, value.decode('latin-1')).encode('latin-1')
    if isinstance(value, list):
        return _sequence(rng, value)
    if isinstance(value, tuple):
        return tuple(_sequence(rng, list(value)))
    if isinstance(value, (set, frozenset)):
        return type(value)(_sequence(rng, sorted(value, key=repr)))
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value, key=repr))
        return {**value, key: perturb(rng, value[key])}
    return value


def derive(test, entry, seed, limit):
    """Up to `limit` new call texts, in a deterministic order for (test, entry, seed)."""
    bases = literal_calls(test, entry)
    originals = {call_text(entry, *b) for b in bases}
    rng = random.Random(seed)
    calls, seen = [], set(originals)
    for _ in range(limit * 20 if bases else 0):
        if len(calls) >= limit:
            break
        args, kwargs = rng.choice(bases)
        args, kwargs = list(args), dict(kwargs)
        names = list(range(len(args))) + sorted(kwargs)
        if not names:
            break
        for _edit in range(1 + (rng.random() < 0.3)):
            name = rng.choice(names)
            if isinstance(name, int):
                args[name] = perturb(rng, args[name])
            else:
                kwargs[name] = perturb(rng, kwargs[name])
        text = call_text(entry, args, kwargs)
        if text is not None and text not in seen:
            seen.add(text)
            calls.append(text)
    return bases, calls


def run(payload, channel, context):
    bases, calls = derive(payload['test'], payload.get('entryPoint', 'task_func'), int(payload.get('seed', 0)), int(payload.get('max', 0)))
    channel.send({'event': 'derived', 'literalCalls': len(bases), 'calls': calls})
