"""The phase kinds a worker can run, by name. Each handler gets the decoded payload, the result
channel and the phase context (job folder, the folders of earlier phases, options). Handlers are
imported when first needed (the worker warms them all), so that an interpreter without numpy still
runs the kinds that need only the standard library."""
import importlib

HANDLERS = {
    'exec': 'exec_program',
    'env.describe': 'env_describe',
    'ds.run': 'ds_run',
    'ds.compare': 'ds_compare',
    'bcb.run': 'bcb_run',
    'bcb.observe': 'bcb_observe',
    'bcb.derive': 'bcb_derive',
    'bcb.probe': 'bcb_probe',
    'bcb.judge': 'bcb_judge',
}


def warm():
    """Imports every handler that can be imported here; returns the names of those that cannot."""
    missing = []
    for module in HANDLERS.values():
        try:
            importlib.import_module(module)
        except Exception:  # a library missing or broken here: the kinds that need it fail when used
            missing.append(module)
    return missing


def run(kind, payload, channel, context):
    module = HANDLERS.get(kind)
    if module is None:
        raise ValueError('unknown phase kind %r' % (kind,))
    importlib.import_module(module).run(payload, channel, context)
