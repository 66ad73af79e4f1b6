"""Deep-learning outputs as plain data, so that they can travel to the judge (whose unpickler builds
no torch or tensorflow object): a tensor becomes a `Tensor` (library, type, numpy array, dtype), a
torch module a `Module` (type and its parameters). The comparator compares them as the original
compares the objects themselves: tensors by allclose, modules by their parameters."""
import sys


class Tensor:
    """A torch or tensorflow tensor (or variable, or parameter) as a numpy array and its dtype name."""

    __slots__ = ('kind', 'array', 'dtype')

    def __init__(self, kind, array, dtype):
        self.kind = kind
        self.array = array
        self.dtype = dtype

    def __reduce__(self):
        return (Tensor, (self.kind, self.array, self.dtype))

    def __repr__(self):
        return '%s(%r, dtype=%s)' % (self.kind, self.array, self.dtype)


class Module:
    """A torch module as its type and its named parameters (each a Tensor)."""

    __slots__ = ('kind', 'parameters')

    def __init__(self, kind, parameters):
        self.kind = kind
        self.parameters = parameters

    def __reduce__(self):
        return (Module, (self.kind, self.parameters))

    def __repr__(self):
        return '%s(%s)' % (self.kind, ', '.join('%s=%r' % (name, value) for name, value in self.parameters))


def _kind(value):
    t = type(value)
    return '%s.%s' % (t.__module__, t.__qualname__)


def _torch_tensor(value):
    torch = sys.modules['torch']
    data = value.detach().cpu()
    if data.dtype == torch.bfloat16:
        data = data.float()
    return Tensor(_kind(value), data.numpy().copy(), str(value.dtype))


def to_plain(value, depth=0):
    """The value with every torch/tensorflow tensor and torch module (also inside lists, tuples and
    dicts) replaced by its surrogate; anything else is returned as it is."""
    if depth > 8:
        return value
    kind = type(value)
    if kind in (list, tuple):
        converted = [to_plain(v, depth + 1) for v in value]
        return converted if kind is list else tuple(converted)
    if kind is dict:
        return {k: to_plain(v, depth + 1) for k, v in value.items()}
    module = kind.__module__.split('.')[0]
    if module == 'torch' and 'torch' in sys.modules:
        torch = sys.modules['torch']
        if isinstance(value, torch.Tensor):
            return _torch_tensor(value)
        if isinstance(value, torch.nn.Module):
            return Module(_kind(value), [(name, _torch_tensor(p)) for name, p in value.state_dict().items()])
    if module in ('tensorflow', 'keras') and 'tensorflow' in sys.modules and hasattr(value, 'numpy') and hasattr(value, 'dtype'):
        try:
            return Tensor(_kind(value), value.numpy(), str(getattr(value.dtype, 'name', value.dtype)))
        except Exception:
            return value
    return value
