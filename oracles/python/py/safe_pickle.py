"""Moving outputs between phases without trusting them. A run phase pickles each output on its own;
the judge loads them with an unpickler that only resolves the data types below (and the classes of
CLASS_MODULES), so a hostile output (an object whose pickle would call `os.system`) cannot run code
in the judge. Values that cannot make that round trip travel as an opaque marker (type name and
repr): the judge compares those by type and repr only (Keras models and LightGBM boosters among
them; torch and tensorflow tensors and torch modules travel as surrogates.py's plain data)."""
import io
import pickle
import sys

from render import show

ALLOWED = {
    'builtins': {'list', 'dict', 'set', 'frozenset', 'tuple', 'complex', 'bytearray', 'bytes', 'range', 'slice',
                 'int', 'float', 'bool', 'str', 'Ellipsis', 'NotImplemented', 'object'},
    'copyreg': {'_reconstructor'},
    'collections': {'Counter', 'OrderedDict', 'defaultdict', 'deque'},
    'datetime': {'date', 'datetime', 'time', 'timedelta', 'timezone'},
    'decimal': {'Decimal'},
    'fractions': {'Fraction'},
    'numpy': {'dtype', 'ndarray'},
    'numpy.core.multiarray': {'_reconstruct', 'scalar'},
    'numpy.ma.core': {'MaskedArray', '_mareconstruct'},
    'pytz': {'_UTC', '_p', 'utc'},
    'pandas._libs.arrays': {'__pyx_unpickle_NDArrayBacked'},
    'pandas._libs.internals': {'_unpickle_block'},
    'pandas._libs.interval': {'Interval'},
    'pandas._libs.tslibs.nattype': {'__nat_unpickle'},
    'pandas._libs.tslibs.offsets': {'Day', 'Hour', 'Minute', 'Second', 'Milli', 'Micro', 'Nano', 'MonthEnd',
                                    'MonthBegin', 'YearEnd', 'YearBegin', 'Week', 'QuarterEnd', 'QuarterBegin',
                                    'BusinessDay'},
    'pandas._libs.tslibs.period': {'Period'},
    'pandas._libs.tslibs.timedeltas': {'_timedelta_unpickle'},
    'pandas._libs.tslibs.timestamps': {'_unpickle_timestamp'},
    'pandas.core.arrays.boolean': {'BooleanArray', 'BooleanDtype'},
    'pandas.core.arrays.categorical': {'Categorical'},
    'pandas.core.arrays.datetimes': {'DatetimeArray'},
    'pandas.core.arrays.timedeltas': {'TimedeltaArray'},
    'pandas.core.arrays.period': {'PeriodArray'},
    'pandas.core.arrays.floating': {'FloatingArray', 'Float64Dtype', 'Float32Dtype'},
    'pandas.core.arrays.integer': {'IntegerArray', 'Int8Dtype', 'Int16Dtype', 'Int32Dtype', 'Int64Dtype',
                                   'UInt8Dtype', 'UInt16Dtype', 'UInt32Dtype', 'UInt64Dtype'},
    'pandas.core.arrays.string_': {'StringArray', 'StringDtype'},
    'pandas.core.dtypes.dtypes': {'CategoricalDtype', 'DatetimeTZDtype', 'PeriodDtype', 'IntervalDtype'},
    'pandas.core.frame': {'DataFrame'},
    'pandas.core.series': {'Series'},
    'pandas.core.indexes.base': {'Index', '_new_Index'},
    'pandas.core.indexes.datetimes': {'DatetimeIndex', '_new_DatetimeIndex'},
    'pandas.core.indexes.timedeltas': {'TimedeltaIndex'},
    'pandas.core.indexes.period': {'PeriodIndex'},
    'pandas.core.indexes.multi': {'MultiIndex'},
    'pandas.core.indexes.category': {'CategoricalIndex'},
    'pandas.core.indexes.numeric': {'Float64Index', 'Int64Index', 'UInt64Index', 'NumericIndex'},
    'pandas.core.indexes.range': {'RangeIndex'},
    'pandas.core.internals.managers': {'BlockManager', 'SingleBlockManager'},
}

ALLOWED.update({
    # A scikit-learn estimator or scipy distribution may hold a numpy random generator.
    'numpy.random._pickle': {'__randomstate_ctor', '__bit_generator_ctor', '__generator_ctor'},
    # torch and tensorflow outputs, converted to plain data by the run phase (surrogates.py).
    'surrogates': {'Tensor', 'Module'},
})

# Modules whose classes (never their functions) the judge may build: scipy's sparse matrices and
# frozen multivariate distributions, scikit-learn's estimators and the Cython types they hold (a
# fitted tree's Tree). Building such a class runs its constructor or __setstate__, which only store
# data; no function of these modules can be named.
CLASS_MODULES = ('scipy.sparse.', 'scipy.stats._multivariate', 'scipy.stats._covariance', 'sklearn.')

OPAQUE = '__witness_opaque__'


class RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if name in ALLOWED.get(module, ()):
            return super().find_class(module, name)
        if module.startswith(CLASS_MODULES) and not name.startswith('__'):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError('refused to load %s.%s (not a plain data type)' % (module, name))


def loads(data):
    """Loads a pickle that may only build plain data (builtins, numpy, pandas, datetime, …)."""
    return RestrictedUnpickler(io.BytesIO(data)).load()


_SCALARS = (int, float, bool, str, bytes, type(None), complex)


def _plain(value, depth=0):
    """True for values whose pickle only uses allowed types (so the round trip can be skipped)."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if depth > 8:
        return False
    if kind in (list, tuple):
        return len(value) <= 10000 and all(_plain(v, depth + 1) for v in value)
    if kind is dict:
        return len(value) <= 10000 and all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    numpy = sys.modules.get('numpy')
    if numpy is not None and (kind is numpy.ndarray or isinstance(value, numpy.generic)):
        return value.dtype.kind in 'biufcSU' and not value.dtype.fields
    return False


class TooLarge(Exception):
    """A value whose pickle is over the byte budget (or too big to pickle within the memory limit)."""

    def __init__(self, size):
        super().__init__(size)
        self.size = size


class _CappedWriter:
    """A file the pickler writes to that refuses to grow past `cap` bytes (checked before storing)."""

    def __init__(self, cap):
        self.cap = cap
        self.size = 0
        self.parts = []

    def write(self, data):
        self.size += len(data)
        if self.size > self.cap:
            raise TooLarge(self.size)
        self.parts.append(bytes(data))
        return len(data)


def _surely_over(value, budget):
    """True when a string, bytes or numpy array is bigger than the budget before it is pickled (no copy)."""
    if isinstance(value, (str, bytes, bytearray)):
        return len(value) > budget
    numpy = sys.modules.get('numpy')
    return numpy is not None and isinstance(value, numpy.ndarray) and value.dtype.kind != 'O' and value.nbytes > budget


def _pickled(value, budget):
    if budget is None:
        return pickle.dumps(value, protocol=4)
    if _surely_over(value, budget):
        raise TooLarge(None)
    writer = _CappedWriter(budget)
    pickle.Pickler(writer, protocol=4).dump(value)
    return b''.join(writer.parts)


def dump_value(value, budget=None):
    """Pickles one output so that the restricted loader can read it back; else an opaque marker.
    Raises TooLarge when the pickle would exceed `budget` bytes (None: no cap) or cannot fit in memory."""
    try:
        data = _pickled(value, budget)
        if not _plain(value):
            loads(data)
        return data
    except TooLarge:
        raise
    except MemoryError:
        raise TooLarge(None)
    except BaseException:
        return pickle.dumps((OPAQUE, type(value).__module__ + '.' + type(value).__qualname__, show(value, 2000)), protocol=4)


def is_opaque(value):
    return type(value) is tuple and len(value) == 3 and type(value[0]) is str and value[0] == OPAQUE
