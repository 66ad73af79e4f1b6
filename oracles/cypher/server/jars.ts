/**
 * The Java launcher's jars: Neo4j 5.20 Community from Maven Central in `neo4j/lib` (git-ignored),
 * fetched on first use by `neo4j/fetch-jars.sh` with a visible message, or beforehand by CI
 * (`.ci/setup.d/30-neo4j.sh`) or by hand (`bash neo4j/fetch-jars.sh`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../../core/package-root.ts';

/** The launcher's Maven project (`neo4j/` at the repository root). */
const NEO4J_PROJECT_DIR = packagePath('neo4j');
const LAUNCHER_LIB_DIR = join(NEO4J_PROJECT_DIR, 'lib');
export const LAUNCHER_MAIN_CLASS = 'witness.neo4j.Launcher';
const SOURCES = join(NEO4J_PROJECT_DIR, 'src/main/java/witness/neo4j');
const FETCH_SCRIPT = join(NEO4J_PROJECT_DIR, 'fetch-jars.sh');

/** The stamp fetch-jars.sh writes once lib/ is complete: pom.xml, then the launcher's .java files by name. */
function expectedStamp(): string {
  const hash = createHash('sha256').update(readFileSync(join(NEO4J_PROJECT_DIR, 'pom.xml')));
  const sources = readdirSync(SOURCES)
    .filter((f) => f.endsWith('.java'))
    .sort();
  for (const file of sources) hash.update(readFileSync(join(SOURCES, file)));
  return hash.digest('hex').slice(0, 16);
}

/** True when lib/ holds the jars and the compiled launcher for the current sources. */
function launcherBuilt(): boolean {
  const stamp = join(LAUNCHER_LIB_DIR, '.complete');
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === expectedStamp();
}

/** The Neo4j version the launcher's jars are (pom.xml's `neo4j.version`). */
export function launcherNeo4jVersion(): string {
  const pom = readFileSync(join(NEO4J_PROJECT_DIR, 'pom.xml'), 'utf8');
  const version = /<neo4j\.version>([^<]+)<\/neo4j\.version>/.exec(pom)?.[1];
  if (!version) throw new Error('neo4j/pom.xml names no neo4j.version');
  return version.trim();
}

/** The launcher's class path. */
export function launcherClassPath(): string {
  return `${join(LAUNCHER_LIB_DIR, 'classes')}:${join(LAUNCHER_LIB_DIR, '*')}`;
}

/** Fetches the jars and compiles the launcher unless already done; its progress goes to `log`. */
export async function ensureLauncherBuilt(log: (line: string) => void, timeoutMs = 15 * 60_000): Promise<void> {
  if (launcherBuilt()) return;
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn('bash', [FETCH_SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        output.push(line);
        if (line.startsWith('Witness:')) log(line);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run neo4j/fetch-jars.sh: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else {
        const tail = output
          .filter((l) => !l.startsWith('Witness:'))
          .slice(-8)
          .join(' | ');
        reject(
          new Error(
            `neo4j/fetch-jars.sh failed (${signal ? `killed by ${signal}` : `exit code ${code}`})${tail ? `: ${tail}` : ''}`,
          ),
        );
      }
    });
  });
  if (!launcherBuilt()) throw new Error('neo4j/fetch-jars.sh finished but neo4j/lib is still incomplete');
}
