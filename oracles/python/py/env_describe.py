"""Phase kind `env.describe`: the interpreter, library versions, and which modules can be imported
(named directly, or imported by the given programs)."""
import importlib
import sys

import ds_rewrite


def _probe(name):
    """(importable, version or None, error or None) for a top-level module."""
    try:
        module = importlib.import_module(name)
    except BaseException as error:
        return False, None, '%s: %s' % (type(error).__name__, str(error)[:200])
    version = getattr(module, '__version__', None)
    if not version:
        try:
            from importlib import metadata

            version = metadata.version(name)
        except Exception:
            version = None
    return True, str(version) if version else None, None


def run(payload, channel, context):
    wanted = list(payload.get('modules', []))
    for program in payload.get('programs', []):
        for name in ds_rewrite.imported_modules(program):
            if name not in wanted:
                wanted.append(name)
    modules = {}
    for name in wanted:
        available, version, error = _probe(name.split('.')[0])
        modules[name] = {'available': available, 'version': version}
        if error and not available:
            modules[name]['error'] = error
    channel.send({'event': 'environment', 'python': sys.version.split()[0], 'implementation': sys.implementation.name, 'modules': modules})
