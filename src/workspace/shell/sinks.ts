import { dirname } from '../path'
import { WorkspaceError, type Workspace } from '../workspace'
import type { Sink } from './commands/types'

/** What the user sees: stdout and stderr interleaved, streamed as written until the shell is stopped. */
export class Terminal implements Sink {
  text = ''
  private closed = false

  constructor(private readonly onOutput?: (chunk: string) => void) {}

  write(text: string): void {
    if (this.closed || text === '') return
    this.text += text
    this.onOutput?.(text)
  }

  /** After a timeout or abort, a command still finishing in the background must not add output. */
  close(): void {
    this.closed = true
  }
}

/** A pipe or a command substitution: everything written, for the next reader. */
export class Capture implements Sink {
  text = ''

  write(text: string): void {
    this.text += text
  }
}

export const devNull: Sink = { write: () => {} }

/** `> file` and `>> file`: collected while the command runs, written when it ends. */
export class FileSink implements Sink {
  private text = ''

  constructor(
    readonly path: string,
    private readonly append: boolean,
  ) {}

  write(text: string): void {
    this.text += text
  }

  async flush(fs: Workspace): Promise<void> {
    const data = new TextEncoder().encode(this.text)
    if (!this.append) return fs.writeFile(this.path, data)
    const existing = await fs.stat(this.path)
    if (existing && data.length === 0) return
    const before = existing ? await fs.readFile(this.path) : new Uint8Array()
    const combined = new Uint8Array(before.length + data.length)
    combined.set(before)
    combined.set(data, before.length)
    await fs.writeFile(this.path, combined)
  }

  /** Fails the way bash does before running the command: a directory there, or no directory to put it in. */
  static async open(fs: Workspace, path: string, append: boolean): Promise<FileSink> {
    const stat = await fs.stat(path)
    if (stat?.type === 'directory') throw new WorkspaceError('is-directory', path, `Is a directory: ${path}`)
    const parent = await fs.stat(dirname(path))
    if (!parent) throw new WorkspaceError('not-found', path, `No such file or directory: ${path}`)
    if (parent.type !== 'directory') throw new WorkspaceError('not-directory', path, `Not a directory: ${path}`)
    return new FileSink(path, append)
  }
}
