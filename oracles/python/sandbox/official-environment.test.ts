/**
 * What the bwrap sandbox gives a program of what BigCodeBench's official image gives, where it is
 * harmless — loopback networking with `localhost` and the host name resolving, `python` and
 * `python3` on PATH, subprocesses within the limits, a temporary folder under /tmp — and what it
 * still refuses: the host's own loopback listeners (the sandbox has its own network namespace) and
 * any route or name outside.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../pool/pool.ts';
import { runProgram } from '../run-program.ts';
import { SANDBOX_HOSTNAME } from '../../../core/sandbox/system-files.ts';

const pool = new WorkerPool({ backend: 'bwrap', size: 1 });
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await pool.close();
  server.close();
});

async function ok(source: string): Promise<string> {
  const outcome = await runProgram(pool, source, { deadlineMs: 10_000 });
  expect(outcome.status, `${outcome.reason}\n${outcome.stderr}`).toBe('ok');
  return outcome.stdout;
}

describe('the sandbox environment, as the official image gives it', () => {
  it('resolves localhost and its own host name to the loopback, and serves HTTP over it', async () => {
    const out = await ok(`import socket, threading, http.server, urllib.request
print(socket.gethostname())
print(socket.gethostbyname('localhost'), socket.gethostbyname(socket.gethostname()))
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b'pong')
    def log_message(self, *a):
        pass
for host in ('localhost', socket.gethostname(), '::1'):
    family = socket.AF_INET6 if ':' in host else socket.AF_INET
    cls = type('S', (http.server.HTTPServer,), {'address_family': family})
    s = cls((host, 0), H)
    threading.Thread(target=s.serve_forever, args=(0.05,), daemon=True).start()
    url = 'http://%s:%d/' % ('[::1]' if family == socket.AF_INET6 else host, s.server_address[1])
    print(host == '::1' or host, urllib.request.urlopen(url, timeout=5).read().decode())
    s.shutdown()
`);
    expect(out).toBe(`${SANDBOX_HOSTNAME}\n127.0.0.1 127.0.1.1\nlocalhost pong\n${SANDBOX_HOSTNAME} pong\nTrue pong\n`);
  });

  it('has python and python3 on PATH, runs scripts through subprocesses and shebangs', async () => {
    const out = await ok(`import os, shutil, stat, subprocess, sys, tempfile
print(bool(shutil.which('python')), bool(shutil.which('python3')))
print(subprocess.run(['python', '-c', 'import sys; print(sys.version_info[:2])'], capture_output=True, text=True).stdout.strip() == str(sys.version_info[:2]))
path = os.path.join(tempfile.mkdtemp(), 'script.py')
open(path, 'w').write('#!/usr/bin/env python\\nimport numpy\\nprint(numpy.arange(3).sum())\\n')
os.chmod(path, 0o755)
print(subprocess.run([path], capture_output=True, text=True).stdout.strip())
print(subprocess.run('echo $((6 * 7))', shell=True, capture_output=True, text=True).stdout.strip())
`);
    expect(out).toBe('True True\nTrue\n3\n42\n');
  });

  it('gives a temporary folder under /tmp, empty for every program', async () => {
    const first = await ok(
      `import tempfile, os\nprint(tempfile.gettempdir(), os.environ['TMPDIR'], tempfile.mkdtemp().startswith('/tmp/'))\nopen('/tmp/left-behind', 'w').write('x')`,
    );
    expect(first).toBe('/tmp /tmp True\n');
    expect(await ok(`import os\nprint(os.listdir('/tmp'))`)).toBe('[]\n');
  });

  it('still keeps the host loopback and the outside world out of reach', async () => {
    const out = await ok(`import socket
for target in (('127.0.0.1', ${port}), ('1.1.1.1', 80)):
    try:
        socket.create_connection(target, timeout=2); print('REACHED', target)
    except OSError as e:
        print('refused', e.errno)
try:
    socket.getaddrinfo('pypi.org', 443); print('RESOLVED')
except socket.gaierror as e:
    print('unresolved', e.errno)
`);
    expect(out).toMatch(/^refused 111\nrefused 101\nunresolved -[23]\n$/);
    expect(connections).toBe(0);
  });
});
