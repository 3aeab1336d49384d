import { loadPyodide } from 'pyodide'
import { beforeAll, describe, expect, it } from 'vitest'
import { PythonEngine } from './engine'
import type { FileUpload, PythonJob, RunRequest } from './protocol'

// The real interpreter, loaded once from node_modules (a few seconds), as the dedicated worker loads it in the app.
let engine: PythonEngine
let pyodide: Awaited<ReturnType<typeof loadPyodide>>
beforeAll(async () => {
  pyodide = await loadPyodide()
  engine = new PythonEngine(pyodide)
}, 60_000)

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const noUpload = (): FileUpload => ({ reset: false, root: '/workspace', remove: [], mkdir: [], write: [] })
const upload = (files: Record<string, string>, modified = 1_700_000_000_000): FileUpload => ({
  ...noUpload(),
  write: Object.entries(files).map(([path, text]) => ({ path, data: encoder.encode(text), modified })),
})

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
    const interrupt = new Int32Array(new SharedArrayBuffer(4))
    pyodide.setInterruptBuffer(interrupt)
    Atomics.store(interrupt, 0, 2)
    const result = run({ kind: 'code', code: 'while True: pass', args: [] })
    expect(result.exitCode).toBe(130)
    expect(result.stderr).toContain('KeyboardInterrupt')
    expect(run({ kind: 'code', code: 'print("next")', args: [] }).stdout).toBe('next\n')
  })
})
