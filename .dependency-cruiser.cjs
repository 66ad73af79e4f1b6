/**
 * The layers of the house (docs/architecture.md), checked by `npm run layers` in `npm test`:
 * `core` imports nothing of ours; `oracles`, `strategies` and `reports` import only `core`;
 * `optimizers` import those four; `suites`, `cli` and `perf` stand on top; nothing imports
 * `suites/`; no oracle family imports another; nothing in the build imports `testing/` (test
 * support, left out of the build). Tests, test support and the hostile corpora (also outside the
 * build) may combine real components of any folder. Type-only imports count.
 */
const TESTS = '\\.test\\.ts$|^testing/|[\\\\/]hostile[\\\\/]|__fixtures__';

const OURS = [
  'core',
  'oracles',
  'strategies',
  'optimizers',
  'reports',
  'suites',
  'cli',
  'perf',
  'fixtures',
  'scripts',
  'testing',
];

/** A rule that `folder` imports only the folders of `allowed` (and itself). */
const importsOnly = (folder, allowed, comment) => ({
  name: `${folder}-imports-only-${allowed.join('-') || 'itself'}`,
  comment,
  severity: 'error',
  from: { path: `^${folder}/`, pathNot: TESTS },
  to: { path: `^(${OURS.filter((f) => f !== folder && !allowed.includes(f)).join('|')})/` },
});

module.exports = {
  forbidden: [
    importsOnly('core', [], 'core imports nothing of the other folders'),
    importsOnly('oracles', ['core'], 'an oracle family imports core and its own folder only'),
    importsOnly('strategies', ['core'], 'a strategy runs inside one episode over core'),
    importsOnly('reports', ['core'], 'reports read results and core types; they never call an oracle or a strategy'),
    importsOnly('optimizers', ['core', 'oracles', 'strategies', 'reports'], 'optimizers build on the four below'),
    {
      name: 'no-oracle-imports-another',
      comment: 'no oracle family imports another',
      severity: 'error',
      from: { path: '^oracles/([^/]+)/', pathNot: TESTS },
      to: { path: '^oracles/[^/]+/', pathNot: '^oracles/$1/' },
    },
    {
      name: 'nothing-imports-suites',
      comment: 'suites are leaves: nothing imports from suites/',
      severity: 'error',
      from: { path: '^(core|oracles|strategies|optimizers|reports|cli|perf)/', pathNot: TESTS },
      to: { path: '^suites/' },
    },
    {
      name: 'nothing-in-the-build-imports-testing',
      comment: 'testing/ is test support outside the build: only tests, perf and testing/ itself import it',
      severity: 'error',
      from: { path: '^(core|oracles|strategies|optimizers|reports|suites|cli)/|^index\\.ts$', pathNot: TESTS },
      to: { path: '^testing/' },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to use; swc parses the sources.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
