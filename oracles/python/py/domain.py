"""The input domain of a DSCodeBench task, as seen in its generated inputs: a schema summarising the
types, sizes and value ranges of the arguments (for fast-check to generate further inputs from),
and the decoder that turns the generated, tagged JSON back into Python values."""
import math

import numpy as np
import pandas as pd

MAX_ALPHABET = 64


def _merge_range(a, b):
    return {'min': min(a['min'], b['min']), 'max': max(a['max'], b['max'])}


def describe(value, depth=0):
    """The schema of one value (see merge for combining several)."""
    if depth > 6:
        return {'kind': 'opaque'}
    if value is None:
        return {'kind': 'none'}
    if isinstance(value, bool):
        return {'kind': 'bool'}
    if isinstance(value, int) and type(value) is int:
        return {'kind': 'int', 'min': value, 'max': value}
    if type(value) is float:
        if math.isnan(value) or math.isinf(value):
            return {'kind': 'opaque'}
        return {'kind': 'float', 'min': value, 'max': value}
    if type(value) is str:
        alphabet = sorted(set(value))
        return {'kind': 'str', 'minLength': len(value), 'maxLength': len(value), 'alphabet': ''.join(alphabet)}
    if type(value) in (list, tuple):
        items = [describe(v, depth + 1) for v in value]
        elem = _merge_all(items)
        out = {'kind': type(value).__name__, 'minLength': len(value), 'maxLength': len(value),
               'elem': elem if elem is not None else {'kind': 'none'}}
        if type(value) is tuple and len(value) <= 8:
            out['items'] = items
        return out
    if type(value) is dict:
        keys = sorted(value.keys(), key=repr)
        if all(type(k) is str for k in keys) and len(keys) <= 16:
            return {'kind': 'record', 'fields': {k: describe(value[k], depth + 1) for k in keys}}
        return {'kind': 'opaque'}
    if type(value) is np.ndarray:
        return _describe_array(value)
    if type(value) is pd.DataFrame:
        return _describe_frame(value)
    if type(value) is pd.Series:
        column = _describe_column(value)
        if column is None or not isinstance(value.index, pd.RangeIndex):
            return {'kind': 'opaque'}
        return {'kind': 'series', 'name': value.name if isinstance(value.name, (str, type(None))) else None,
                'column': column, 'minLength': len(value), 'maxLength': len(value)}
    return {'kind': 'opaque'}


def _describe_array(value):
    if value.dtype.kind not in 'iufb' or value.ndim == 0 or value.ndim > 3 or value.size > 100000:
        return {'kind': 'opaque'}
    out = {'kind': 'ndarray', 'dtype': str(value.dtype), 'shapeMin': list(value.shape), 'shapeMax': list(value.shape)}
    if value.dtype.kind != 'b' and value.size:
        finite = value[np.isfinite(value)] if value.dtype.kind == 'f' else value
        if finite.size:
            out['min'] = finite.min().item()
            out['max'] = finite.max().item()
    return out


def _describe_column(series):
    kind = series.dtype.kind
    if str(series.dtype) not in ('int64', 'float64', 'bool', 'object'):
        return None
    if kind == 'O':
        values = [v for v in series.tolist()]
        if not all(type(v) is str for v in values):
            return None
        return {'dtype': 'object', 'categories': sorted(set(values))[:32]} if values else {'dtype': 'object', 'categories': ['a']}
    column = {'dtype': str(series.dtype)}
    if kind in 'if' and len(series):
        finite = series[np.isfinite(series)] if kind == 'f' else series
        if len(finite):
            column['min'] = finite.min().item()
            column['max'] = finite.max().item()
    return column


def _describe_frame(frame):
    if not isinstance(frame.index, pd.RangeIndex) or len(frame.columns) > 20:
        return {'kind': 'opaque'}
    columns = []
    for name in frame.columns:
        if not isinstance(name, str):
            return {'kind': 'opaque'}
        column = _describe_column(frame[name])
        if column is None:
            return {'kind': 'opaque'}
        columns.append(dict(column, name=name))
    return {'kind': 'dataframe', 'columns': columns, 'minRows': len(frame), 'maxRows': len(frame)}


def merge(a, b):
    """The schema covering both a and b ('union' when their kinds differ)."""
    if a['kind'] == 'opaque' or b['kind'] == 'opaque':
        return {'kind': 'opaque'}
    if a['kind'] == 'union' or b['kind'] == 'union' or a['kind'] != b['kind']:
        options = (a['options'] if a['kind'] == 'union' else [a]) + (b['options'] if b['kind'] == 'union' else [b])
        merged = []
        for option in options:
            for i, known in enumerate(merged):
                if known['kind'] == option['kind']:
                    merged[i] = merge(known, option)
                    break
            else:
                merged.append(option)
        return merged[0] if len(merged) == 1 else {'kind': 'union', 'options': merged}
    kind = a['kind']
    if kind in ('none', 'bool'):
        return a
    if kind in ('int', 'float'):
        return dict(a, **_merge_range(a, b))
    if kind == 'str':
        alphabet = ''.join(sorted(set(a['alphabet']) | set(b['alphabet'])))
        return {'kind': 'str', 'minLength': min(a['minLength'], b['minLength']), 'maxLength': max(a['maxLength'], b['maxLength']),
                'alphabet': alphabet if len(alphabet) <= MAX_ALPHABET else alphabet[:MAX_ALPHABET]}
    if kind in ('list', 'tuple'):
        out = {'kind': kind, 'minLength': min(a['minLength'], b['minLength']), 'maxLength': max(a['maxLength'], b['maxLength']),
               'elem': merge(a['elem'], b['elem'])}
        if 'items' in a and 'items' in b and len(a['items']) == len(b['items']):
            out['items'] = [merge(x, y) for x, y in zip(a['items'], b['items'])]
        return out
    if kind == 'record':
        if set(a['fields']) != set(b['fields']):
            return {'kind': 'opaque'}
        return {'kind': 'record', 'fields': {k: merge(a['fields'][k], b['fields'][k]) for k in a['fields']}}
    if kind == 'ndarray':
        if a['dtype'] != b['dtype'] or len(a['shapeMin']) != len(b['shapeMin']):
            return {'kind': 'opaque'}
        out = {'kind': 'ndarray', 'dtype': a['dtype'],
               'shapeMin': [min(x, y) for x, y in zip(a['shapeMin'], b['shapeMin'])],
               'shapeMax': [max(x, y) for x, y in zip(a['shapeMax'], b['shapeMax'])]}
        if 'min' in a and 'min' in b:
            out.update(_merge_range(a, b))
        elif 'min' in a or 'min' in b:
            out.update({k: (a if 'min' in a else b)[k] for k in ('min', 'max')})
        return out
    if kind == 'dataframe':
        if [c['name'] for c in a['columns']] != [c['name'] for c in b['columns']]:
            return {'kind': 'opaque'}
        columns = []
        for x, y in zip(a['columns'], b['columns']):
            merged = _merge_column(x, y)
            if merged is None:
                return {'kind': 'opaque'}
            columns.append(dict(merged, name=x['name']))
        return {'kind': 'dataframe', 'columns': columns, 'minRows': min(a['minRows'], b['minRows']), 'maxRows': max(a['maxRows'], b['maxRows'])}
    if kind == 'series':
        column = _merge_column(a['column'], b['column'])
        if column is None or a.get('name') != b.get('name'):
            return {'kind': 'opaque'}
        return {'kind': 'series', 'name': a.get('name'), 'column': column,
                'minLength': min(a['minLength'], b['minLength']), 'maxLength': max(a['maxLength'], b['maxLength'])}
    return {'kind': 'opaque'}


def _merge_column(x, y):
    if x['dtype'] != y['dtype']:
        return None
    if x['dtype'] == 'object':
        return {'dtype': 'object', 'categories': sorted(set(x['categories']) | set(y['categories']))[:32]}
    out = {'dtype': x['dtype']}
    if 'min' in x and 'min' in y:
        out.update(_merge_range(x, y))
    return out


def _merge_all(schemas):
    out = None
    for schema in schemas:
        out = schema if out is None else merge(out, schema)
    return out


def infer(cases, single):
    """The schema of a task's argument lists over all its generated cases."""
    argument_lists = [(case,) if single else tuple(case) if isinstance(case, (list, tuple)) else (case,) for case in cases]
    lengths = {len(args) for args in argument_lists}
    if len(lengths) != 1:
        return {'kind': 'opaque'}
    count = lengths.pop()
    arguments = []
    for i in range(count):
        arguments.append(_merge_all([describe(args[i]) for args in argument_lists]) or {'kind': 'none'})
    return {'kind': 'arguments', 'single': single, 'arguments': arguments,
            'usable': all(_usable(s) for s in arguments)}


def _usable(schema):
    if schema['kind'] == 'opaque':
        return False
    if schema['kind'] == 'union':
        return all(_usable(o) for o in schema['options'])
    for key in ('elem',):
        if key in schema and not _usable(schema[key]):
            return False
    if 'items' in schema and not all(_usable(s) for s in schema['items']):
        return False
    if schema['kind'] == 'record' and not all(_usable(s) for s in schema['fields'].values()):
        return False
    return True


def decode(value):
    """Tagged JSON (as fast-check generates it) to Python values."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if '$f' in value:
        return float(value['$f'])
    if '$tuple' in value:
        return tuple(decode(v) for v in value['$tuple'])
    if '$record' in value:
        return {k: decode(v) for k, v in value['$record'].items()}
    if '$ndarray' in value:
        spec = value['$ndarray']
        return np.array(spec['data'], dtype=spec['dtype']).reshape(spec['shape'])
    if '$dataframe' in value:
        spec = value['$dataframe']
        return pd.DataFrame({c['name']: pd.Series(c['data'], dtype=c['dtype']) for c in spec['columns']})
    if '$series' in value:
        spec = value['$series']
        return pd.Series(spec['data'], dtype=spec['dtype'], name=spec.get('name'))
    raise ValueError('unknown tagged value: %r' % (sorted(value),))
