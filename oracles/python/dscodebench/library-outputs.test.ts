/**
 * DSCodeBench outputs of the libraries CI installs (Debian's scipy and scikit-learn) reach the
 * judge as themselves, so the comparator's branches for them run for real: scipy sparse matrices
 * (shape, nnz, indices, indptr and data), scikit-learn estimators (str(get_params())), frozen
 * multivariate normals (mean and covariance). Before, such outputs reached the judge only as their
 * repr, and two sparse matrices with the same shape and nnz but different values "matched".
 * Where the interpreter has torch (the full profile), torch tensors and modules too; CI's default
 * profile has no torch, and there that test is skipped (the comparator's tensor branches are
 * checked on surrogates in comparator.test.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Candidate, Task } from '../../../core/types.ts';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';
import { dsCodeBenchOracle } from './oracle.ts';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());
const oracle = dsCodeBenchOracle({ pool, cases: 20, candidateDeadlineMs: 20_000 });
const code = (source: string): Candidate => ({ source, extraction: 'code-block' });
const task = (id: string, library: string, gold: string, testScript: string): Task => ({
  id,
  benchmark: 'dscodebench',
  description: id,
  gold,
  context: { library, testScript },
});

const sparse = task(
  'sparse',
  'SciPy',
  'import numpy as np\nfrom scipy import sparse\n\ndef adjacency(edges, n):\n    rows = [a for a, _ in edges]\n    cols = [b for _, b in edges]\n    return sparse.csr_matrix((np.ones(len(edges)), (rows, cols)), shape=(n, n))\n',
  'import random\n\ndef test_case_input_generator(n=200):\n    cases = []\n    for _ in range(n):\n        k = random.randint(2, 6)\n        cases.append(([(random.randrange(k), random.randrange(k)) for _ in range(random.randint(1, 8))], k))\n    return cases\n',
);

const estimator = task(
  'estimator',
  'Scikit-learn',
  'from sklearn.linear_model import LogisticRegression\n\ndef make_model(c):\n    return LogisticRegression(C=c, max_iter=500)\n',
  'import random\n\ndef test_case_input_generator(n=200):\n    return [random.choice([0.1, 1.0, 10.0]) for _ in range(n)]\n',
);

const gaussian = task(
  'gaussian',
  'SciPy',
  'import numpy as np\nfrom scipy import stats\n\ndef fit(points):\n    points = np.asarray(points, dtype=float)\n    return stats.multivariate_normal(points.mean(axis=0), np.cov(points.T) + np.eye(2))\n',
  'import numpy as np\n\ndef test_case_input_generator(n=200):\n    return [np.random.rand(6, 2).round(2).tolist() for _ in range(n)]\n',
);

describe('outputs of scipy and scikit-learn reach the judge as themselves', () => {
  it('compares sparse matrices by shape, nnz, indices, indptr and data', async () => {
    const prepared = await oracle.prepare(sparse);
    expect((await oracle.check(prepared, code(sparse.gold))).pass).toBe(true);
    const doubled = await oracle.check(
      prepared,
      code(sparse.gold.replace('np.ones(len(edges))', '2 * np.ones(len(edges))')),
    );
    expect(doubled.pass).toBe(false);
    expect(doubled.detail?.firstMismatch).toMatch(/sparse data differ/);
    const dense = await oracle.check(
      prepared,
      code(
        `${sparse.gold.replace('def adjacency', 'def _adjacency')}\ndef adjacency(edges, n):\n    return _adjacency(edges, n).toarray()\n`,
      ),
    );
    expect(dense.detail?.firstMismatch).toMatch(/expected a scipy\.sparse\.\S*csr_matrix, got a numpy\.ndarray/);
  });

  it('compares estimators by str(get_params())', async () => {
    const prepared = await oracle.prepare(estimator);
    expect((await oracle.check(prepared, code(estimator.gold))).pass).toBe(true);
    const other = await oracle.check(prepared, code(estimator.gold.replace('max_iter=500', 'max_iter=501')));
    expect(other.pass).toBe(false);
    expect(other.detail?.firstMismatch).toMatch(/estimator parameters differ/);
  });

  it('compares frozen multivariate normals by mean and covariance', async () => {
    const prepared = await oracle.prepare(gaussian);
    expect((await oracle.check(prepared, code(gaussian.gold))).pass).toBe(true);
    const shifted = await oracle.check(
      prepared,
      code(gaussian.gold.replace('points.mean(axis=0)', 'points.mean(axis=0) + 1')),
    );
    expect(shifted.pass).toBe(false);
    expect(shifted.detail?.firstMismatch).toMatch(/distribution parameters differ/);
  });
});

const torchTask = task(
  'torch',
  'PyTorch',
  'import torch\n\ndef scale(values, factor):\n    return torch.tensor(values, dtype=torch.float32) * factor\n',
  'import random\n\ndef test_case_input_generator(n=200):\n    return [([random.random() for _ in range(random.randint(1, 40))], random.choice([0.5, 2.0])) for _ in range(n)]\n',
);
const torchModule = task(
  'torch-module',
  'PyTorch',
  'import torch\n\ndef layer(width):\n    return torch.nn.Linear(width, 2)\n',
  'import random\n\ndef test_case_input_generator(n=200):\n    return [random.randint(1, 4) for _ in range(n)]\n',
);
const torchHere = (await runProgram(pool, 'import torch')).status === 'ok';

describe('torch outputs, where the interpreter has torch', () => {
  it.runIf(torchHere)('compares tensors by allclose and modules by their parameters, not by repr', async () => {
    const prepared = await oracle.prepare(torchTask);
    expect((await oracle.check(prepared, code(torchTask.gold))).pass).toBe(true);
    // A tensor's repr shows four decimals: a difference below them (but over allclose's tolerance) used to go unseen.
    const slightly = await oracle.check(prepared, code(torchTask.gold.replace('* factor', '* factor + 2e-5')));
    expect(slightly.pass).toBe(false);
    expect(slightly.detail?.firstMismatch).toMatch(/tensor values differ/);
    const modules = await oracle.prepare(torchModule);
    expect((await oracle.check(modules, code(torchModule.gold))).pass).toBe(true);
    // A module's repr names its sizes only: other weights used to "match".
    const other = await oracle.check(
      modules,
      code('import torch\n\ndef layer(width):\n    torch.manual_seed(7)\n    return torch.nn.Linear(width, 2)\n'),
    );
    expect(other.pass).toBe(false);
    expect(other.detail?.firstMismatch).toMatch(/output\.(weight|bias): tensor values differ/);
  });
});
