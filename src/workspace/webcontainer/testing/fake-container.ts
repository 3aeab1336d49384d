import type { FileSystemTree } from '@webcontainer/api'
import { normalizePath } from '../../path'
import type {
  ContainerDirEntry,
  ContainerFileSystem,
  ContainerLike,
  ContainerProcess,
  ContainerSpawnOptions,
  MountableContainer,
} from '../container'

// An in-memory stand-in for the WebContainer SDK, for tests. Its errors look like the real ones after Comlink:
// a plain Error whose message starts with the Node error code.

type WatchListener = (event: 'rename' | 'change', filename: string) => void

export class FakeFileSystem implements ContainerFileSystem {
  readonly files = new Map<string, Uint8Array>()
  readonly directories = new Set<string>(['/'])
  readonly watchers = new Set<WatchListener>()
  /** Absent when the fake plays a container without a native watcher. */
  readonly watch?: (path: string, options: { recursive: boolean }, listener: WatchListener) => { close(): void }

  constructor(options: { watch?: boolean } = {}) {
    if (options.watch === false) return
    this.watch = (_path, _options, listener) => {
      this.watchers.add(listener)
      return { close: () => void this.watchers.delete(listener) }
    }
  }

  /** `.`, `a/b` and `/a/b` all name paths under the working directory, as in the SDK. */
  private key(path: string): string {
    return normalizePath(`/${path}`)
  }

  private parent(key: string): string {
    return key.slice(0, key.lastIndexOf('/')) || '/'
  }

  async readFile(path: string): Promise<Uint8Array> {
    const key = this.key(path)
    if (this.directories.has(key)) throw new Error(`EISDIR: illegal operation on a directory, read`)
    const data = this.files.get(key)
    if (!data) throw new Error(`ENOENT: no such file or directory, open '${key}'`)
    return data.slice()
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const key = this.key(path)
    if (this.directories.has(key)) throw new Error(`EISDIR: illegal operation on a directory, open '${key}'`)
    if (!this.directories.has(this.parent(key))) throw new Error(`ENOENT: no such file or directory, open '${key}'`)
    const existed = this.files.has(key)
    this.files.set(key, typeof data === 'string' ? new TextEncoder().encode(data) : data.slice())
    this.notify(existed ? 'change' : 'rename', key)
  }

  async readdir(path: string, _options: { withFileTypes: true }): Promise<ContainerDirEntry[]> {
    const key = this.key(path)
    if (this.files.has(key)) throw new Error(`ENOTDIR: not a directory, scandir '${key}'`)
    if (!this.directories.has(key)) throw new Error(`ENOENT: no such file or directory, scandir '${key}'`)
    const entries: ContainerDirEntry[] = []
    const children = (set: Iterable<string>, directory: boolean) => {
      for (const candidate of set) {
        if (candidate === '/' || this.parent(candidate) !== key) continue
        const name = candidate.slice(candidate.lastIndexOf('/') + 1)
        entries.push({ name, isFile: () => !directory, isDirectory: () => directory })
      }
    }
    children(this.files.keys(), false)
    children(this.directories, true)
    return entries
  }

  mkdir(path: string, options?: { recursive?: false }): Promise<unknown>
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
  async mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown> {
    const key = this.key(path)
    if (this.files.has(key)) throw new Error(`EEXIST: file already exists, mkdir '${key}'`)
    if (this.directories.has(key)) {
      if (options?.recursive) return undefined
      throw new Error(`EEXIST: file already exists, mkdir '${key}'`)
    }
    if (!this.directories.has(this.parent(key))) {
      if (!options?.recursive) throw new Error(`ENOENT: no such file or directory, mkdir '${key}'`)
      await this.mkdir(this.parent(key), { recursive: true })
    }
    this.directories.add(key)
    this.notify('rename', key)
    return undefined
  }

  async rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void> {
    const key = this.key(path)
    if (this.files.delete(key)) return this.notify('rename', key)
    if (!this.directories.has(key)) throw new Error(`ENOENT: no such file or directory, rm '${key}'`)
    if (!options?.recursive) throw new Error(`EISDIR: is a directory, rm '${key}'`)
    const inside = (candidate: string) => candidate === key || candidate.startsWith(`${key}/`)
    for (const file of [...this.files.keys()]) if (inside(file)) this.files.delete(file)
    for (const directory of [...this.directories]) if (inside(directory)) this.directories.delete(directory)
    this.notify('rename', key)
  }

  /** What a command would trigger in the container's watcher. */
  emitNative(event: 'rename' | 'change', filename: string) {
    for (const listener of this.watchers) listener(event, filename)
  }

  /** Seeds files (and their directories) without raising watch events. */
  seed(files: Record<string, string>) {
    for (const [path, text] of Object.entries(files)) {
      const key = this.key(path)
      for (let parent = this.parent(key); parent !== '/'; parent = this.parent(parent)) this.directories.add(parent)
      this.files.set(key, new TextEncoder().encode(text))
    }
  }

  private notify(event: 'rename' | 'change', key: string) {
    this.emitNative(event, key.slice(1))
  }
}

/** A process the test drives: it writes output, then exits (or never does). */
export class FakeProcess implements ContainerProcess {
  readonly output: ReadableStream<string>
  readonly exit: Promise<number>
  killed = false
  private controller!: ReadableStreamDefaultController<string>
  private resolveExit!: (code: number) => void

  constructor() {
    this.output = new ReadableStream({ start: (controller) => void (this.controller = controller) })
    this.exit = new Promise((resolve) => (this.resolveExit = resolve))
  }

  write(chunk: string) {
    this.controller.enqueue(chunk)
  }

  /** Closes the output first, as a process that ends does. */
  end(code: number) {
    this.closeOutput()
    this.settle(code)
  }

  closeOutput() {
    this.controller.close()
  }

  /** Only the exit code (the output may still trail it). */
  settle(code: number) {
    this.resolveExit(code)
  }

  kill() {
    this.killed = true
  }
}

export interface SpawnCall {
  command: string
  args: string[]
  options: ContainerSpawnOptions | undefined
  process: FakeProcess
}

/** A container whose processes are handed to `run`, which drives them. */
export class FakeContainer implements ContainerLike, MountableContainer {
  readonly fs: FakeFileSystem
  readonly spawned: SpawnCall[] = []
  readonly mounted: FileSystemTree[] = []

  constructor(
    private readonly run: (call: SpawnCall) => void = (call) => call.process.end(0),
    options: { watch?: boolean } = {},
  ) {
    this.fs = new FakeFileSystem(options)
  }

  async spawn(command: string, args: string[], options?: ContainerSpawnOptions): Promise<ContainerProcess> {
    const call = { command, args, options, process: new FakeProcess() }
    this.spawned.push(call)
    this.run(call)
    return call.process
  }

  async mount(tree: FileSystemTree): Promise<void> {
    this.mounted.push(tree)
  }
}
