"""The phase kinds a worker can run, by name. Each handler gets the decoded payload, the result
channel and the phase context (job folder, the folders of earlier phases, options)."""
import bcb_observe
import bcb_run
import ds_compare
import ds_run
import env_describe
import exec_program

HANDLERS = {
    'exec': exec_program.run,
    'env.describe': env_describe.run,
    'ds.run': ds_run.run,
    'ds.compare': ds_compare.run,
    'bcb.run': bcb_run.run,
    'bcb.observe': bcb_observe.run,
}


def run(kind, payload, channel, context):
    handler = HANDLERS.get(kind)
    if handler is None:
        raise ValueError('unknown phase kind %r' % (kind,))
    handler(payload, channel, context)
