import type { PyodideAPI } from 'pyodide'
import type { FileDownload, FileUpload, RunRequest } from './protocol'
import { takeCleanState, type CleanState } from './clean-state'
import { RUNNER_SOURCE } from './runner-source'
import { installPackages } from './site-packages'
import { compareTrees, DIRECTORY, fileSignature, SKIPPED_DIRECTORIES } from './sync'

type EmscriptenFS = PyodideAPI['FS']

export interface EngineOutput {
  stdout(text: string): void
  stderr(text: string): void
}

/**
 * One warm interpreter over an in-memory copy of the project. It runs wherever Pyodide was loaded (the dedicated
 * worker in the app, Node in the tests): files come in as uploads, the program runs synchronously (Stop arrives
 * through Pyodide's interrupt buffer), and what it changed under the project root goes back as a download. Each
 * run starts from the interpreter's state right after start-up (clean-state.ts), as each command on a machine
 * starts a new process: nothing a program changes in Python outlives its command.
 */
export class PythonEngine {
  private output: EngineOutput | undefined
  private readonly run: (...args: unknown[]) => number
  /** The project tree as the engine last left it in step with the host. */
  private tree = new Map<string, string>()
  private root: string | undefined
  private readonly clean: CleanState
  /** Whether anything ran since the clean state was last put back. */
  private used = false
  /** Where installed wheels are unpacked (asked of Python before the clean state is taken). */
  private readonly site: string

  constructor(private readonly pyodide: PyodideAPI) {
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() }
    for (const stream of ['stdout', 'stderr'] as const) {
      const write = (buffer: Uint8Array) => {
        const text = decoders[stream].decode(buffer, { stream: true })
        if (text !== '') this.output?.[stream](text)
        return buffer.length
      }
      if (stream === 'stdout') pyodide.setStdout({ write })
      else pyodide.setStderr({ write })
    }
    const namespace = pyodide.globals.get('dict')()
    pyodide.runPython(RUNNER_SOURCE, { globals: namespace, filename: '<exec>' })
    this.run = namespace.get('run')
    namespace.destroy()
    this.site = String(pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']"))
    this.clean = takeCleanState(pyodide)
  }

  get version(): string {
    this.used = true
    return String(this.pyodide.runPython('import sys; sys.version.split()[0]'))
  }

  /** `reusable` is false when this interpreter cannot be put back clean for the next run (clean-state.ts). */
  execute(request: RunRequest, output: EngineOutput): { exitCode: number; download: FileDownload; reusable: boolean } {
    // Put back before the run rather than after the last one: anything the last program queued in JavaScript
    // (a promise's callback) has run by now, against the memory it knew.
    if (this.used) this.clean.restore()
    this.used = true
    this.upload(request.upload)
    installPackages(this.pyodide, this.site, request.packages)
    // A working directory outside the project (the shell allows /tmp) exists here too; nothing there syncs back.
    this.fs.mkdirTree(request.cwd)
    this.output = output
    let exitCode: number
    try {
      const { job } = request
      const target = job.kind === 'script' ? job.path : job.kind === 'module' ? job.module : job.kind === 'code' ? job.code : (job.source ?? '')
      const args = this.pyodide.toPy(job.args)
      const env = this.pyodide.toPy(request.env)
      try {
        exitCode = Number(this.run(job.kind, target, args, request.argv0, request.cwd, env, request.stdin))
      } catch (error) {
        // Only what escapes the runner's own handlers lands here (an interrupt in its last lines): still a result.
        const message = error instanceof Error ? error.message : String(error)
        exitCode = /KeyboardInterrupt\s*$/.test(message) ? 130 : 1
        output.stderr(message.endsWith('\n') ? message : `${message}\n`)
      } finally {
        args.destroy()
        env.destroy()
      }
    } finally {
      this.output = undefined
    }
    return { exitCode, download: this.download(), reusable: !this.clean.touchedJavaScript() }
  }

  private get fs(): EmscriptenFS {
    return this.pyodide.FS
  }

  private upload(upload: FileUpload) {
    const { fs } = this
    if (upload.reset || this.root !== upload.root) {
      // Its contents, not the directory itself: it is Python's working directory (EBUSY).
      if (this.root !== undefined) for (const name of fs.readdir(this.root)) if (name !== '.' && name !== '..') removeTree(fs, `${this.root}/${name}`)
      this.tree = new Map()
      this.root = upload.root
    }
    fs.mkdirTree(upload.root)
    for (const path of upload.remove) {
      removeTree(fs, path)
      for (const known of [...this.tree.keys()]) if (known === path || known.startsWith(`${path}/`)) this.tree.delete(known)
    }
    for (const path of upload.mkdir) {
      fs.mkdirTree(path)
      this.tree.set(path, DIRECTORY)
    }
    for (const file of upload.write) {
      fs.mkdirTree(parentOf(file.path))
      fs.writeFile(file.path, file.data)
      // The project's own time, so Python sees sensible mtimes and anything it writes later differs from it.
      fs.utime(file.path, file.modified, file.modified)
      const stat = fs.stat(file.path)
      this.tree.set(file.path, fileSignature(stat.size, Number(stat.mtime)))
    }
  }

  private download(): FileDownload {
    const { fs } = this
    const after = this.root === undefined ? new Map<string, string>() : readTree(fs, this.root)
    const changes = compareTrees(this.tree, after)
    this.tree = after
    return {
      remove: changes.remove,
      mkdir: changes.mkdir,
      write: changes.write.map((path) => ({ path, data: fs.readFile(path) as Uint8Array })),
    }
  }
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/'
}

function readTree(fs: EmscriptenFS, root: string): Map<string, string> {
  const tree = new Map<string, string>()
  const pending = [root]
  while (pending.length > 0) {
    const directory = pending.pop()!
    let names: string[]
    try {
      names = fs.readdir(directory)
    } catch {
      continue
    }
    for (const name of names) {
      if (name === '.' || name === '..') continue
      const path = `${directory}/${name}`
      const stat = fs.lstat(path)
      if (fs.isDir(stat.mode)) {
        if (SKIPPED_DIRECTORIES.has(name) || name === '__pycache__') continue
        tree.set(path, DIRECTORY)
        pending.push(path)
      } else if (fs.isFile(stat.mode)) tree.set(path, fileSignature(stat.size, Number(stat.mtime)))
    }
  }
  return tree
}

function removeTree(fs: EmscriptenFS, path: string) {
  let stat: { mode: number }
  try {
    stat = fs.lstat(path)
  } catch {
    return
  }
  if (!fs.isDir(stat.mode)) return fs.unlink(path)
  for (const name of fs.readdir(path)) if (name !== '.' && name !== '..') removeTree(fs, `${path}/${name}`)
  fs.rmdir(path)
}
