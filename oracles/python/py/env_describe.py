"""Phase kind `env.describe`: the interpreter, library versions, and which modules can be imported."""
import importlib
import importlib.util
import sys


def _version(name):
    try:
        module = importlib.import_module(name)
        version = getattr(module, '__version__', None)
        if version:
            return str(version)
    except BaseException:
        return None
    try:
        from importlib import metadata

        return metadata.version(name)
    except Exception:
        return None


def run(payload, channel, context):
    modules = {}
    for name in payload.get('modules', []):
        top = name.split('.')[0]
        try:
            found = importlib.util.find_spec(top) is not None
        except (ImportError, ValueError):
            found = False
        modules[name] = {'available': found, 'version': _version(top) if found else None}
    channel.send({
        'event': 'environment',
        'python': sys.version.split()[0],
        'implementation': sys.implementation.name,
        'modules': modules,
    })
