/**
 * DSCodeBench outputs of the libraries CI installs (Debian's scipy and scikit-learn) reach the
 * judge as themselves, so the comparator's branches for them run for real: scipy sparse matrices
 * (shape, nnz, indices, indptr and data), scikit-learn estimators (str(get_params())), frozen
 * multivariate normals (mean and covariance). Before, such outputs reached the judge only as their
 * repr, and two sparse matrices with the same shape and nnz but different values "matched".
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Candidate, Task } from '../../../core/types.ts';
import { WorkerPool } from '../pool/pool.ts';
import { dsCodeBenchOracle } from './oracle.ts';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());
const oracle = dsCodeBenchOracle({ pool, cases: 20, candidateDeadlineMs: 20_000 });
const code = (source: string): Candidate => ({ source, extraction: 'code-block' });
const task = (id: string, library: string, gold: string, testScript: string): Task => ({ id, benchmark: 'dscodebench', description: id, gold, context: { library, testScript } });

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
    const doubled = await oracle.check(prepared, code(sparse.gold.replace('np.ones(len(edges))', '2 * np.ones(len(edges))')));
    expect(doubled.pass).toBe(false);
    expect(doubled.detail?.firstMismatch).toMatch(/sparse data differ/);
    const dense = await oracle.check(prepared, code(`${sparse.gold.replace('def adjacency', 'def _adjacency')}\ndef adjacency(edges, n):\n    return _adjacency(edges, n).toarray()\n`));
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
    const shifted = await oracle.check(prepared, code(gaussian.gold.replace('points.mean(axis=0)', 'points.mean(axis=0) + 1')));
    expect(shifted.pass).toBe(false);
    expect(shifted.detail?.firstMismatch).toMatch(/distribution parameters differ/);
  });
});
