/**
 * The DSCodeBench comparator (py/comparator.py) on hand-checked cases, run by the sandbox's own
 * interpreter with numpy 1.24 and pandas 1.5: the original's semantics (exact type match, dict keys
 * of the reference only, np.allclose with broadcasting, pandas' assert_*_equal, == otherwise) and
 * the two deliberate differences, each an option. Also the restricted unpickler that carries
 * outputs from a run to the judge.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());

interface Case {
  name: string;
  expected: string;
  actual: string;
  pass: boolean;
  options?: Record<string, boolean>;
  reason?: RegExp;
}

const CASES: Case[] = [
  { name: 'equal lists', expected: '[1, 2]', actual: '[1, 2]', pass: true },
  { name: 'list vs tuple', expected: '[1, 2]', actual: '(1, 2)', pass: false, reason: /expected a list, got a tuple/ },
  { name: 'int vs float', expected: '1', actual: '1.0', pass: false, reason: /expected a int, got a float/ },
  { name: 'bool vs int', expected: 'True', actual: '1', pass: false },
  { name: 'tuple element types', expected: "(1, 'a')", actual: "(1.0, 'a')", pass: false, reason: /output\[0\]/ },
  { name: 'list length', expected: '[1, 2]', actual: '[1]', pass: false, reason: /expected length 2, got 1/ },
  { name: 'dict: extra candidate keys ignored', expected: "{'a': 1}", actual: "{'a': 1, 'b': 2}", pass: true },
  {
    name: 'dict: missing key',
    expected: "{'a': 1, 'b': 2}",
    actual: "{'a': 1}",
    pass: false,
    reason: /missing key 'b'/,
  },
  { name: 'strings', expected: "'a'", actual: "'b'", pass: false },
  { name: 'None', expected: 'None', actual: 'None', pass: true },
  {
    name: 'numpy int scalar vs int',
    expected: 'np.int64(3)',
    actual: '3',
    pass: false,
    reason: /expected a numpy\.int64, got a int/,
  },
  {
    name: 'arrays within tolerance, NaN equal',
    expected: 'np.array([1.0, np.nan])',
    actual: 'np.array([1.0 + 1e-9, np.nan])',
    pass: true,
  },
  {
    name: 'arrays differ',
    expected: 'np.array([1, 2])',
    actual: 'np.array([1, 3])',
    pass: false,
    reason: /np\.allclose is False/,
  },
  {
    name: 'allclose broadcasts, as in the original',
    expected: 'np.array([1, 1])',
    actual: 'np.array([1])',
    pass: true,
  },
  {
    name: 'string arrays compared by ==',
    expected: "np.array(['a', 'b'])",
    actual: "np.array(['a', 'b'])",
    pass: true,
  },
  { name: 'string arrays differ', expected: "np.array(['a', 'b'])", actual: "np.array(['a', 'c'])", pass: false },
  {
    name: 'string arrays, original np.allclose semantics',
    expected: "np.array(['a'])",
    actual: "np.array(['a'])",
    pass: false,
    options: { nonNumericArraysFail: true },
  },
  { name: 'equal frames', expected: "pd.DataFrame({'a': [1, 2]})", actual: "pd.DataFrame({'a': [1, 2]})", pass: true },
  {
    name: 'frame dtype differs',
    expected: "pd.DataFrame({'a': [1, 2]})",
    actual: "pd.DataFrame({'a': [1.0, 2.0]})",
    pass: false,
    reason: /dtype/,
  },
  {
    name: 'frame column order differs',
    expected: "pd.DataFrame({'a': [1], 'b': [2]})",
    actual: "pd.DataFrame({'b': [2], 'a': [1]})",
    pass: false,
  },
  {
    name: 'frame values within default tolerance',
    expected: "pd.DataFrame({'a': [0.1 + 0.2]})",
    actual: "pd.DataFrame({'a': [0.3]})",
    pass: true,
  },
  {
    name: 'series name differs',
    expected: "pd.Series([1], name='x')",
    actual: "pd.Series([1], name='y')",
    pass: false,
    reason: /name/,
  },
  { name: 'floats close', expected: '0.1 + 0.2', actual: '0.3', pass: true },
  { name: 'floats differ', expected: '1.0', actual: '1.1', pass: false, reason: /differs from the expected 1\.0/ },
  {
    name: 'floats differ, original no-op branch',
    expected: '1.0',
    actual: '1.1',
    pass: true,
    options: { noOpFloatBranches: true },
  },
  { name: 'numpy floats differ', expected: 'np.float64(1.0)', actual: 'np.float64(2.0)', pass: false },
  {
    name: 'numpy floats, original no-op branch',
    expected: 'np.float64(1.0)',
    actual: 'np.float64(2.0)',
    pass: true,
    options: { noOpFloatBranches: true },
  },
  {
    name: 'masked arrays differ',
    expected: 'np.ma.masked_array([1.0, 2.0], [0, 0])',
    actual: 'np.ma.masked_array([1.0, 5.0], [0, 0])',
    pass: false,
  },
  {
    name: 'masked arrays, original no-op branch',
    expected: 'np.ma.masked_array([1.0, 2.0], [0, 0])',
    actual: 'np.ma.masked_array([1.0, 5.0], [0, 0])',
    pass: true,
    options: { noOpFloatBranches: true },
  },
  {
    name: 'nested structures',
    expected: "[np.array([1.0]), {'k': pd.Series([1])}]",
    actual: "[np.array([1.0]), {'k': pd.Series([1])}]",
    pass: true,
  },
  {
    name: 'nested difference is located',
    expected: "[0, {'k': [1, 2]}]",
    actual: "[0, {'k': [1, 3]}]",
    pass: false,
    reason: /output\[1\]\['k'\]\[1\]: 3 differs from the expected 2/,
  },
  { name: 'NaN floats', expected: "float('nan')", actual: "float('nan')", pass: true },
  // torch and tensorflow outputs reach the judge as surrogates (py/surrogates.py): their branches run without those libraries.
  {
    name: 'torch tensors equal',
    expected: "T('torch.Tensor', np.array([1.0, 2.0]), 'torch.float32')",
    actual: "T('torch.Tensor', np.array([1.0, 2.0 + 1e-9]), 'torch.float32')",
    pass: true,
  },
  {
    name: 'torch tensors differ',
    expected: "T('torch.Tensor', np.array([1.0, 2.0]), 'torch.float32')",
    actual: "T('torch.Tensor', np.array([1.0, 2.5]), 'torch.float32')",
    pass: false,
    reason: /tensor values differ/,
  },
  {
    name: 'torch tensors, original no-op branch',
    expected: "T('torch.Tensor', np.array([1.0]), 'torch.float32')",
    actual: "T('torch.Tensor', np.array([9.0]), 'torch.float32')",
    pass: true,
    options: { noOpFloatBranches: true },
  },
  {
    name: 'torch dtypes differ (torch.allclose raises)',
    expected: "T('torch.Tensor', np.array([1.0]), 'torch.float32')",
    actual: "T('torch.Tensor', np.array([1.0]), 'torch.float64')",
    pass: false,
    reason: /dtypes differ/,
  },
  {
    name: 'tensor vs array',
    expected: "T('torch.Tensor', np.array([1.0]), 'torch.float32')",
    actual: 'np.array([1.0])',
    pass: false,
    reason: /expected a torch\.Tensor, got a numpy\.ndarray/,
  },
  {
    name: 'tensorflow values only',
    expected: "T('tensorflow.python.framework.ops.EagerTensor', np.array([1, 2]), 'int32')",
    actual: "T('tensorflow.python.framework.ops.EagerTensor', np.array([1.0, 2.0]), 'float32')",
    pass: true,
  },
  {
    name: 'torch modules by parameters',
    expected:
      "M('torch.nn.modules.linear.Linear', [('weight', T('torch.Tensor', np.array([[1.0]]), 'torch.float32'))])",
    actual: "M('torch.nn.modules.linear.Linear', [('weight', T('torch.Tensor', np.array([[1.5]]), 'torch.float32'))])",
    pass: false,
    reason: /output\.weight: tensor values differ/,
  },
];

describe('the DSCodeBench comparator on hand-checked cases', () => {
  it('judges every case as the original does, except where an option says otherwise', async () => {
    const options = (o: Record<string, boolean> = {}) =>
      `{${Object.entries(o)
        .map(([k, v]) => `'${k}': ${v ? 'True' : 'False'}`)
        .join(', ')}}`;
    const body = CASES.map((c) => `    (${c.expected}, ${c.actual}, ${options(c.options)}),`).join('\n');
    const source = `import json\nimport numpy as np\nimport pandas as pd\nimport comparator\nfrom surrogates import Tensor as T, Module as M\ncases = [\n${body}\n]\nprint(json.dumps([comparator.compare(e, a, o) for e, a, o in cases]))`;
    const outcome = await runProgram(pool, source);
    expect(outcome.status, outcome.reason).toBe('ok');
    const results = JSON.parse(outcome.stdout) as [boolean, string | null][];
    CASES.forEach((c, i) => {
      const [pass, reason] = results[i] as [boolean, string | null];
      expect({ name: c.name, pass }).toEqual({ name: c.name, pass: c.pass });
      if (c.reason) expect(reason, c.name).toMatch(c.reason);
    });
  });
});

describe('carrying outputs to the judge', () => {
  it('refuses to unpickle anything but plain data, and ships hostile outputs as opaque markers', async () => {
    const source = `import os, pickle, json
import numpy as np, pandas as pd
import safe_pickle

class Evil:
    def __reduce__(self):
        return (os.system, ('echo owned > pwned.txt',))

crafted = pickle.dumps(Evil())
try:
    safe_pickle.loads(crafted)
    refused = None
except pickle.UnpicklingError as e:
    refused = str(e)
import pickletools
def reduce_to(module, name):
    return b'\\x80\\x04c' + module.encode() + b'\\n' + name.encode() + b'\\n)R.'
functions = []
for module, name in (('scipy.sparse', 'load_npz'), ('sklearn.utils', 'all_estimators'), ('sklearn.datasets', 'fetch_openml'), ('scipy.sparse._base', '__builtins__')):
    try:
        safe_pickle.loads(reduce_to(module, name))
        functions.append('LOADED ' + name)
    except pickle.UnpicklingError:
        functions.append('refused')
opaque = safe_pickle.loads(safe_pickle.dump_value(Evil()))
frame = safe_pickle.loads(safe_pickle.dump_value(pd.DataFrame({'a': [1.5], 'd': pd.to_datetime(['2024-01-01'])})))
print(json.dumps({'refused': refused, 'opaque': list(opaque[:2]), 'is_opaque': safe_pickle.is_opaque(opaque), 'frame': str(frame.dtypes.tolist()), 'pwned': os.path.exists('pwned.txt'), 'functions': functions, 'lambda': safe_pickle.is_opaque(safe_pickle.loads(safe_pickle.dump_value(lambda x: x)))}))`;
    const outcome = await runProgram(pool, source);
    expect(outcome.status, outcome.reason).toBe('ok');
    const result = JSON.parse(outcome.stdout);
    expect(result.refused).toMatch(/refused to load (posix|os)\.system \(not a plain data type\)/);
    expect(result.opaque).toEqual(['__witness_opaque__', '__main__.Evil']);
    expect(result.is_opaque).toBe(true);
    expect(result.frame).toBe("[dtype('float64'), dtype('<M8[ns]')]");
    expect(result.pwned).toBe(false);
    // scipy.sparse and sklearn classes may be built (the judge compares them), none of their functions.
    expect(result.functions).toEqual(['refused', 'refused', 'refused', 'refused']);
    expect(result.lambda).toBe(true);
  });
});
