/**
 * The few system files a sandboxed program finds as it would in BigCodeBench's official image:
 * `/etc/hosts` (localhost and the sandbox's own host name on the loopback), `/etc/hostname`,
 * `/etc/nsswitch.conf` (names from files, then DNS — which has no server to ask), and `python` /
 * `python3` commands on PATH. Staged once per process in a folder the sandbox user can read.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sandboxTempDir } from './identity.ts';

/** The host name of the sandbox's own UTS namespace. */
export const SANDBOX_HOSTNAME = 'sandbox';

/** Where the staged `python` / `python3` commands appear inside the sandbox. */
export const SANDBOX_BIN_DIR = '/opt/witness/bin';

/** Contents of the sandbox's /etc files, by name. */
export function etcFiles(hostname = SANDBOX_HOSTNAME): Record<string, string> {
  return {
    hosts: `127.0.0.1\tlocalhost\n127.0.1.1\t${hostname}\n::1\tlocalhost ip6-localhost ip6-loopback\n`,
    hostname: `${hostname}\n`,
    'nsswitch.conf':
      'passwd: files\ngroup: files\nhosts: files dns\nnetworks: files\nprotocols: files\nservices: files\n',
  };
}

/**
 * The interpreter's own folder when it offers both `python` and `python3` (a virtualenv's bin), so
 * that PATH can name it directly: a link to a virtualenv's interpreter from elsewhere would start
 * Python outside the virtualenv. Else null, and the staged links are used.
 */
export function interpreterBinDir(python: string): string | null {
  const dir = dirname(python);
  return existsSync(join(dir, 'python')) && existsSync(join(dir, 'python3')) ? dir : null;
}

const staged = new Map<string, string>();

/** A folder with `etc/` (the files above) and `bin/` (`python`, `python3` linking to the interpreter). */
export function stagedSystemDir(python: string): string {
  const existing = staged.get(python);
  if (existing) return existing;
  const dir = mkdtempSync(join(sandboxTempDir(), 'witness-sys-'));
  mkdirSync(join(dir, 'etc'));
  mkdirSync(join(dir, 'bin'));
  for (const [name, text] of Object.entries(etcFiles())) {
    writeFileSync(join(dir, 'etc', name), text);
    chmodSync(join(dir, 'etc', name), 0o644);
  }
  for (const name of ['python', 'python3']) symlinkSync(python, join(dir, 'bin', name));
  for (const sub of ['', 'etc', 'bin']) chmodSync(join(dir, sub), 0o755);
  staged.set(python, dir);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** PATH inside the sandbox: the interpreter's own commands (else the staged links) first, then the system's. */
export function sandboxPath(interpreterBin: string | null, stagedBin: string): string {
  return [interpreterBin ?? stagedBin, '/usr/local/bin', '/usr/bin', '/bin'].join(':');
}
