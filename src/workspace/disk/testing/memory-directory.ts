import type { DirectoryHandle, FileHandle, WritableFile } from '../directory-handle'

/**
 * An in-memory directory with the File System Access API's behaviour as far as a disk workspace uses it: the
 * DOMException names a real handle rejects with, a file's `lastModified` from a clock, writes that land on `close()`.
 * `files` maps relative paths to text. The test changes "the disk" through `put`, `drop` and the handles themselves.
 */
export class MemoryDirectory implements DirectoryHandle {
  readonly kind = 'directory'
  private readonly children = new Map<string, MemoryDirectory | MemoryFile>()
  permission: PermissionState = 'granted'

  constructor(
    readonly name: string,
    private readonly clock: () => number,
  ) {}

  static from(files: Record<string, string>, options: { name?: string; now?: () => number } = {}): MemoryDirectory {
    const root = new MemoryDirectory(options.name ?? 'folder', options.now ?? Date.now)
    for (const [path, text] of Object.entries(files)) root.put(path, text)
    return root
  }

  /** Writes a file as another program would, creating its folders. */
  put(path: string, content: string | Uint8Array): void {
    const segments = path.split('/').filter(Boolean)
    const name = segments.pop()!
    let directory: MemoryDirectory = this
    for (const segment of segments) {
      let next = directory.children.get(segment)
      if (!next) directory.children.set(segment, (next = new MemoryDirectory(segment, this.clock)))
      if (!(next instanceof MemoryDirectory)) throw new Error(`${segment} is a file`)
      directory = next
    }
    let file = directory.children.get(name)
    if (!file) directory.children.set(name, (file = new MemoryFile(name, this.clock)))
    if (!(file instanceof MemoryFile)) throw new Error(`${name} is a directory`)
    file.set(typeof content === 'string' ? new TextEncoder().encode(content) : content)
  }

  /** The text of a file, or undefined when there is none. */
  text(path: string): string | undefined {
    const segments = path.split('/').filter(Boolean)
    let entry: MemoryDirectory | MemoryFile | undefined = this
    for (const segment of segments) entry = entry instanceof MemoryDirectory ? entry.children.get(segment) : undefined
    return entry instanceof MemoryFile ? new TextDecoder().decode(entry.data) : undefined
  }

  async getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<MemoryDirectory> {
    this.check()
    const entry = this.children.get(name)
    if (entry instanceof MemoryDirectory) return entry
    if (entry) throw new DOMException(`${name} is a file`, 'TypeMismatchError')
    if (!options?.create) throw new DOMException(`${name} not found`, 'NotFoundError')
    const created = new MemoryDirectory(name, this.clock)
    this.children.set(name, created)
    return created
  }

  async getFileHandle(name: string, options?: { create?: boolean }): Promise<MemoryFile> {
    this.check()
    const entry = this.children.get(name)
    if (entry instanceof MemoryFile) return entry
    if (entry) throw new DOMException(`${name} is a directory`, 'TypeMismatchError')
    if (!options?.create) throw new DOMException(`${name} not found`, 'NotFoundError')
    const created = new MemoryFile(name, this.clock)
    this.children.set(name, created)
    return created
  }

  async removeEntry(name: string, options?: { recursive?: boolean }): Promise<void> {
    this.check()
    const entry = this.children.get(name)
    if (!entry) throw new DOMException(`${name} not found`, 'NotFoundError')
    if (entry instanceof MemoryDirectory && entry.children.size > 0 && !options?.recursive) {
      throw new DOMException(`${name} is not empty`, 'InvalidModificationError')
    }
    this.children.delete(name)
  }

  async *values(): AsyncIterable<MemoryDirectory | MemoryFile> {
    this.check()
    yield* [...this.children.values()]
  }

  async queryPermission(): Promise<PermissionState> {
    return this.permission
  }

  async requestPermission(): Promise<PermissionState> {
    return this.permission
  }

  private check(): void {
    if (this.permission !== 'granted') throw new DOMException('The user did not grant permission.', 'NotAllowedError')
  }
}

export class MemoryFile implements FileHandle {
  readonly kind = 'file'
  data: Uint8Array<ArrayBuffer> = new Uint8Array()
  lastModified = 0
  /** How often its contents were taken (`getFile`), for tests that count reads. */
  opened = 0

  constructor(
    readonly name: string,
    private readonly clock: () => number,
  ) {
    this.lastModified = clock()
  }

  set(data: Uint8Array): void {
    this.data = data.slice()
    this.lastModified = this.clock()
  }

  async getFile(): Promise<File> {
    this.opened++
    return new File([this.data], this.name, { lastModified: this.lastModified })
  }

  async createWritable(): Promise<WritableFile> {
    const chunks: Uint8Array<ArrayBuffer>[] = []
    return {
      write: async (data) => void chunks.push(data.slice()),
      close: async () => {
        const total = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
        let offset = 0
        for (const chunk of chunks) {
          total.set(chunk, offset)
          offset += chunk.length
        }
        this.set(total)
      },
    }
  }
}
