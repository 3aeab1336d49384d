import { loadPyodide } from 'pyodide'
import { beforeAll, describe, expect, it } from 'vitest'
import { PythonEngine } from './engine'
import type { FileUpload, PythonJob, RunRequest } from './protocol'

// The real interpreter, loaded once from node_modules (a few seconds), as the dedicated worker loads it in the app.
let engine: PythonEngine
let pyodide: Awaited<ReturnType<typeof loadPyodide>>
// Given before the engine takes its clean state, as the worker does: Stop's buffer is part of the interpreter.
const interrupt = new Int32Array(new SharedArrayBuffer(4))
beforeAll(async () => {
  pyodide = await loadPyodide()
  pyodide.setInterruptBuffer(interrupt)
  engine = new PythonEngine(pyodide)
}, 60_000)

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const noUpload = (): FileUpload => ({ reset: false, root: '/workspace', remove: [], mkdir: [], write: [] })
const upload = (files: Record<string, string>, modified = 1_700_000_000_000): FileUpload => ({
  ...noUpload(),
  write: Object.entries(files).map(([path, text]) => ({ path, data: encoder.encode(text), modified })),
})

/** Changes process-wide state when it is imported, as real suites do, and checks that none was there before. */
const LEAKY_SUITE = [
  'import atexit, codecs, json, unittest, warnings',
  '',
  "AT_START = {'json': json.dumps(1), 'codec': True, 'filter': any(f[1] is not None and f[1].pattern == 'project marker' for f in warnings.filters)}",
  'try:',
  "    codecs.lookup('project_codec')",
  'except LookupError:',
  "    AT_START['codec'] = False",
  '',
  "json.dumps = lambda *args, **kwargs: 'patched'",
  "codecs.register(lambda name: codecs.lookup('utf-8') if name == 'project_codec' else None)",
  "warnings.filterwarnings('error', message='project marker')",
  "atexit.register(print, 'atexit ran')",
  '',
  '',
  'class Fresh(unittest.TestCase):',
  '    def test_json_is_the_standard_one(self):',
  "        self.assertEqual(AT_START['json'], '1')",
  '',
  '    def test_no_codec_registered(self):',
  "        self.assertFalse(AT_START['codec'])",
  '',
  '    def test_no_warnings_filter_added(self):',
  "        self.assertFalse(AT_START['filter'])",
  '',
  '',
  "if __name__ == '__main__':",
  '    unittest.main()',
  '',
].join('\n')

function run(job: PythonJob, options: Partial<RunRequest> = {}) {
  let stdout = ''
  let stderr = ''
  const result = engine.execute(
    { job, argv0: 'python3', cwd: '/workspace', env: {}, stdin: '', upload: noUpload(), packages: [], ...options },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
  )
  const written = Object.fromEntries(result.download.write.map((file) => [file.path, decoder.decode(file.data)]))
  return { ...result, stdout, stderr, written }
}

describe('PythonEngine (Pyodide in Node)', () => {
  it('runs a script over uploaded files with its arguments, and sends back only what Python wrote', () => {
    const result = run(
      { kind: 'script', path: 'main.py', args: ['a', 'b'] },
      {
        upload: upload({
          '/workspace/main.py': 'import sys, helper\nprint(sys.argv, helper.twice(21))\nopen("out.txt", "w").write("written")\n',
          '/workspace/helper.py': 'def twice(n):\n    return n * 2\n',
        }),
      },
    )
    expect(result.stdout).toBe("['main.py', 'a', 'b'] 42\n")
    expect(result.exitCode).toBe(0)
    expect(result.written).toEqual({ '/workspace/out.txt': 'written' })
    expect(result.download.remove).toEqual([])
  })

  it('gives CPython exit codes: SystemExit, an uncaught exception with its traceback, a missing script', () => {
    expect(run({ kind: 'code', code: 'import sys; sys.exit(3)', args: [] }).exitCode).toBe(3)
    expect(run({ kind: 'code', code: 'raise SystemExit("bye")', args: [] })).toMatchObject({ exitCode: 1, stderr: 'bye\n' })
    const failed = run({ kind: 'code', code: 'print("before")\n1/0', args: [] })
    expect(failed.exitCode).toBe(1)
    expect(failed.stdout).toBe('before\n')
    expect(failed.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "<string>", line 2, in <module>\n[\s\S]*ZeroDivisionError: division by zero\n$/)
    expect(failed.stderr).not.toContain('<exec>')
    const missing = run({ kind: 'script', path: 'nope.py', args: [] })
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain("python3: can't open file '/workspace/nope.py': [Errno 2] No such file or directory")
    expect(run({ kind: 'module', module: 'nomodule', args: [] })).toMatchObject({ exitCode: 1, stderr: 'python3: No module named nomodule\n' })
  })

  it('runs unittest over project modules, and sees an edited module on the next (warm) run', () => {
    const test = 'import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 2), 4)\n'
    const first = run(
      { kind: 'module', module: 'unittest', args: [] },
      { upload: upload({ '/workspace/calc.py': 'def add(a, b):\n    return a - b\n', '/workspace/test_calc.py': test }) },
    )
    expect(first.exitCode).toBe(1)
    expect(first.stderr).toContain('FAILED (failures=1)')
    const second = run({ kind: 'module', module: 'unittest', args: ['test_calc'] }, { upload: upload({ '/workspace/calc.py': 'def add(a, b):\n    return a + b\n' }, 1_700_000_000_001) })
    expect(second.exitCode).toBe(0)
    expect(second.stderr).toMatch(/Ran 1 test[\s\S]*OK/)
  })

  it('runs a project module and package with -m, and unittest discover over a tests folder', () => {
    const files = upload({
      '/workspace/app/__init__.py': '',
      '/workspace/app/__main__.py': 'import sys\nprint("app", sys.argv[1:])\n',
      '/workspace/tool.py': 'import sys\nprint(__name__, sys.argv[0].endswith("tool.py"))\n',
      '/workspace/tests/test_one.py': 'import unittest\n\nclass One(unittest.TestCase):\n    def test_ok(self):\n        pass\n',
    })
    expect(run({ kind: 'module', module: 'app', args: ['x'] }, { upload: files }).stdout).toBe("app ['x']\n")
    expect(run({ kind: 'module', module: 'tool', args: [] }).stdout).toBe('__main__ True\n')
    const discovered = run({ kind: 'module', module: 'unittest', args: ['discover', '-s', 'tests'] })
    expect(discovered.exitCode).toBe(0)
    expect(discovered.stderr).toContain('Ran 1 test')
  })

  it('reads stdin, runs a program given on stdin, and reports removals and new directories', () => {
    expect(run({ kind: 'code', code: 'print(input().upper())', args: [] }, { stdin: 'shout\n' }).stdout).toBe('SHOUT\n')
    expect(run({ kind: 'stdin', args: [], source: 'print(6 * 7)' }).stdout).toBe('42\n')
    run({ kind: 'code', code: 'pass', args: [] }, { upload: upload({ '/workspace/old.txt': 'x' }) })
    const result = run({ kind: 'code', code: 'import os\nos.remove("old.txt")\nos.makedirs("pkg/sub")', args: [] })
    expect(result.download.remove).toEqual(['/workspace/old.txt'])
    expect(result.download.mkdir.sort()).toEqual(['/workspace/pkg', '/workspace/pkg/sub'])
  })

  it('a SIGINT in the interrupt buffer stops a runaway loop with KeyboardInterrupt and status 130', () => {
    // Set before the run here (one thread); in the app the host sets it from the agent's worker while Python spins.
    Atomics.store(interrupt, 0, 2)
    const result = run({ kind: 'code', code: 'while True: pass', args: [] })
    expect(result.exitCode).toBe(130)
    expect(result.stderr).toContain('KeyboardInterrupt')
    expect(run({ kind: 'code', code: 'print("next")', args: [] }).stdout).toBe('next\n')
  })

  it('starts every run clean: a test suite that patches the standard library, registers a codec and adds a warnings filter passes twice', () => {
    const files = { ...upload({ '/workspace/test_leaky.py': LEAKY_SUITE }), reset: true }
    const first = run({ kind: 'module', module: 'unittest', args: [] }, { upload: files })
    const second = run({ kind: 'module', module: 'unittest', args: [] })
    const third = run({ kind: 'script', path: 'test_leaky.py', args: [] })
    for (const result of [first, second, third]) {
      expect(result.stderr).toMatch(/Ran 3 tests[\s\S]*\nOK\n$/)
      expect(result.exitCode).toBe(0)
      // The handler the suite registered runs once, at the end of its own run, and never again.
      expect(result.stdout).toBe('atexit ran\n')
    }
    expect(run({ kind: 'code', code: 'import json, sys; print(json.dumps(2), "test_leaky" in sys.modules)', args: [] }).stdout).toBe('2 False\n')
  }, 30_000)

  it('ends a run as CPython ends a process: atexit handlers after the traceback, in reverse order, buffered output flushed, the exit code of SystemExit', () => {
    const code = [
      'import atexit, sys',
      "atexit.register(print, 'registered first')",
      "atexit.register(lambda: sys.stdout.write('no newline, flushed anyway'))",
      "sys.stdout.write('unflushed ')",
      'raise SystemExit(4)',
    ].join('\n')
    expect(run({ kind: 'code', code, args: [] })).toMatchObject({ exitCode: 4, stdout: 'unflushed no newline, flushed anyway' + 'registered first\n' })
    const failing = run({ kind: 'code', code: "import atexit\natexit.register(print, 'after the traceback')\n1/0", args: [] })
    expect(failing.exitCode).toBe(1)
    expect(failing.stderr).toContain('ZeroDivisionError')
    expect(failing.stdout).toBe('after the traceback\n')
    expect(run({ kind: 'code', code: "import sys\nsys.exit('a message')", args: [] })).toMatchObject({ exitCode: 1, stderr: 'a message\n' })
    expect(run({ kind: 'code', code: 'import sys\nsys.exit()', args: [] }).exitCode).toBe(0)
    // A failing handler is reported and the others still run; the exit code stays the program's.
    const handlers = run({ kind: 'code', code: "import atexit\natexit.register(print, 'still runs')\natexit.register(lambda: 1/0)", args: [] })
    expect(handlers).toMatchObject({ exitCode: 0, stdout: 'still runs\n' })
    expect(handlers.stderr).toContain('ZeroDivisionError')
  })

  it('keeps the files a run wrote, and what a run left open is closed before the next', () => {
    run({ kind: 'code', code: "global_file = open('/tmp/kept.txt', 'w')\nglobal_file.write('x')\nglobal_file.flush()", args: [] })
    expect(run({ kind: 'code', code: "print(open('/tmp/kept.txt').read())", args: [] }).stdout).toBe('x\n')
    const descriptors = () => Number(run({ kind: 'code', code: "import os\nprint(len(os.listdir('/proc/self/fd')) if os.path.isdir('/proc/self/fd') else os.open('/tmp/kept.txt', os.O_RDONLY))", args: [] }).stdout)
    const before = descriptors()
    for (let index = 0; index < 3; index++) run({ kind: 'code', code: "leaked = [open('/tmp/kept.txt') for _ in range(5)]", args: [] })
    expect(descriptors()).toBe(before)
  })

  it('says an interpreter cannot be reused after a program used Pyodide’s bridge to JavaScript, and can after pure Python', () => {
    // Pure Python, however much it changes the process, leaves the bridge's table alone.
    expect(run({ kind: 'code', code: "import json, atexit, time\njson.dumps = None\natexit.register(print, 'x')\ntime.sleep(0.01)", args: [] }).reusable).toBe(true)
    expect(run({ kind: 'code', code: 'raise SystemExit(3)', args: [] }).reusable).toBe(true)
    const bridged = run({ kind: 'code', code: "import js\nprint(js.Object.keys(js.JSON.parse('{\"a\": 1}')).length)", args: [] })
    expect(bridged).toMatchObject({ exitCode: 0, stdout: '1\n', reusable: false })
  })
})
