/**
 * A package-lock.json for a fresh project that depends on a packed Witness tarball, cut from
 * Witness's own lockfile: the same versions and integrity hashes, only the packages the installed
 * tarball needs (its dependencies and peers, transitively). With it `npm ci --offline` installs
 * from the tarballs `npm ci` already put in the npm cache, without asking the registry for
 * package metadata (which a plain `npm install <tgz> --offline` needs and a CI cache lacks).
 */

interface LockEntry {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [key: string]: unknown;
}

export interface Lockfile {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** The lock path Node's resolution finds for `name` required from the package at `from` ('' = the root). */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** Names a package needs installed: dependencies, optional ones, and its non-optional peers. */
function needs(entry: LockEntry): { name: string; optional: boolean }[] {
  const optionalPeer = (name: string) => entry.peerDependenciesMeta?.[name]?.optional === true;
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(entry.peerDependencies ?? {})
      .filter((name) => !optionalPeer(name))
      .map((name) => ({ name, optional: false })),
  ];
}

/**
 * The lockfile of a project named `project` whose only dependency is the tarball `tarball` (a path
 * relative to the project) of the package locked by `source`.
 */
export function consumerLock(source: Lockfile, project: string, tarball: string, integrity: string): Lockfile {
  const root = source.packages[''];
  const name = root?.name;
  if (!root || !name || !root.version)
    throw new Error('the source lockfile has no root package with a name and version');
  const packagePath = `node_modules/${name}`;
  const { devDependencies: _dev, ...published } = root;
  const packages: Record<string, LockEntry> = {
    '': { name: project, dependencies: { [name]: `file:${tarball}` } },
    [packagePath]: { ...published, resolved: `file:${tarball}`, integrity },
  };
  // Walk from the package: every path it resolves is copied from the source lock, as the source
  // lock laid it out (hoisted or nested), which is where npm would place it again.
  const queue: string[] = [packagePath];
  const lookup = { ...source.packages, [packagePath]: published };
  while (queue.length > 0) {
    const from = queue.shift() as string;
    for (const need of needs(lookup[from] as LockEntry)) {
      const found = resolveIn(lookup, from === packagePath ? '' : from, need.name);
      if (!found) {
        if (need.optional) continue;
        throw new Error(`the source lockfile has no entry for ${need.name}, needed by ${from}`);
      }
      if (packages[found]) continue;
      const { dev: _d, devOptional: _o, peer: _p, ...entry } = source.packages[found] as LockEntry;
      packages[found] = entry;
      queue.push(found);
    }
  }
  return { name: project, lockfileVersion: source.lockfileVersion, requires: true, packages };
}
