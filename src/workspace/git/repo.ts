import * as git from 'isomorphic-git'
import { normalizePath, relativePath, resolvePath } from '../path'
import type { ProgramRequest } from '../runtime/program'
import type { GitFs } from './fs'

/** Ends the command with text on stderr and an exit code: `fatal:` is 128 and `error:` 1, as in git. */
export class GitExit extends Error {
  override name = 'GitExit'
  constructor(
    readonly text: string,
    readonly exitCode: number,
  ) {
    super(text)
  }
}

export const fatal = (message: string) => new GitExit(`fatal: ${message}\n`, 128)

/** What every subcommand gets: the request, the adapted filesystem and where its output goes. */
export interface GitContext {
  request: ProgramRequest
  fs: GitFs
  now: () => number
  out: (text: string) => void
  err: (text: string) => void
}

/** A file as one side of a comparison sees it: a commit's tree, the index, or the working tree. */
export interface FileVersion {
  oid: string
  mode: number
  read: () => Promise<Uint8Array>
}

export type FileSet = Map<string, FileVersion>

export const NOT_A_REPOSITORY = 'not a git repository (or any of the parent directories): .git'

/** The repository the command runs in, with the reads every subcommand shares. */
export class Repo {
  /** isomorphic-git's parsed-object cache, shared by the calls of one command. */
  readonly cache = {}

  constructor(
    readonly context: GitContext,
    readonly dir: string,
  ) {}

  get gitdir(): string {
    return `${this.dir === '/' ? '' : this.dir}/.git`
  }

  get base() {
    return { fs: this.context.fs, dir: this.dir, gitdir: this.gitdir, cache: this.cache }
  }

  /** The repository containing `cwd`: the nearest directory upwards that holds `.git`. */
  static async find(context: GitContext, cwd = context.request.cwd): Promise<Repo | undefined> {
    let dir = normalizePath(cwd)
    for (;;) {
      const stat = await context.request.files.stat(`${dir === '/' ? '' : dir}/.git`)
      if (stat?.type === 'directory') return new Repo(context, dir)
      if (dir === '/') return undefined
      dir = dir.slice(0, dir.lastIndexOf('/')) || '/'
    }
  }

  static async open(context: GitContext): Promise<Repo> {
    const repo = await Repo.find(context)
    if (!repo) throw fatal(NOT_A_REPOSITORY)
    return repo
  }

  /** A path the user typed (relative to the working directory) as a path inside the repository; '' is its root. */
  pathOf(typed: string): string {
    const absolute = resolvePath(this.context.request.cwd, typed)
    const relative = relativePath(this.dir, absolute)
    if (relative === '..' || relative.startsWith('../')) {
      throw fatal(`${typed}: '${typed}' is outside repository at '${this.dir}'`)
    }
    return relative === '.' ? '' : relative
  }

  /** A repository path as the user sees it from the working directory (as `git status` prints it). */
  shown(path: string): string {
    return relativePath(this.context.request.cwd, `${this.dir}/${path}`)
  }

  absolute(path: string): string {
    return path === '' ? this.dir : `${this.dir === '/' ? '' : this.dir}/${path}`
  }

  /** The branch HEAD points to, even before its first commit; undefined when HEAD is detached. */
  async headBranch(): Promise<string | undefined> {
    return (await git.currentBranch({ ...this.base, fullname: false })) ?? undefined
  }

  /** HEAD's commit; undefined before the first commit. */
  async head(): Promise<string | undefined> {
    return git.resolveRef({ ...this.base, ref: 'HEAD' }).catch(() => undefined)
  }

  /**
   * A revision as git reads it: a branch, tag, `HEAD`, a full or abbreviated id, with any `~N`, `^` and `^N`
   * suffixes. Undefined when it names nothing.
   */
  async revision(spec: string): Promise<string | undefined> {
    const match = /^(.*?)((?:[~^]\d*)*)$/.exec(spec)!
    let oid = await this.resolveName(match[1] || 'HEAD')
    if (!oid) return undefined
    for (const [, kind, count] of match[2]!.matchAll(/([~^])(\d*)/g)) {
      const n = count === '' ? 1 : Number(count)
      if (kind === '~') {
        for (let step = 0; step < n && oid; step++) oid = (await this.readCommit(oid)).parent[0]
      } else if (n > 0) oid = (await this.readCommit(oid)).parent[n - 1]
      if (!oid) return undefined
    }
    return oid
  }

  /** A revision that must exist, else git's "unknown revision" error. */
  async commitOf(spec: string): Promise<string> {
    const oid = await this.revision(spec)
    if (!oid) throw fatal(`ambiguous argument '${spec}': unknown revision or path not in the working tree.`)
    return oid
  }

  private async resolveName(name: string): Promise<string | undefined> {
    const ref = await git.resolveRef({ ...this.base, ref: name }).catch(() => undefined)
    if (ref) return this.peel(ref)
    if (/^[0-9a-f]{4,40}$/.test(name)) {
      return git.expandOid({ ...this.base, oid: name }).catch(() => undefined)
    }
    return undefined
  }

  /** An annotated tag's commit. */
  private async peel(oid: string): Promise<string> {
    const object = await git.readObject({ ...this.base, oid, format: 'parsed' }).catch(() => undefined)
    if (object?.type === 'tag') return this.peel((object.object as { object: string }).object)
    return oid
  }

  async readCommit(oid: string) {
    return (await git.readCommit({ ...this.base, oid })).commit
  }

  /** Every file of a commit's tree; empty for none (the parent of a root commit). */
  async treeFiles(commit: string | undefined): Promise<FileSet> {
    const files: FileSet = new Map()
    if (!commit) return files
    await git.walk({
      ...this.base,
      trees: [git.TREE({ ref: commit })],
      map: async (path, [entry]) => {
        if (!entry) return null
        if ((await entry.type()) === 'blob') this.addVersion(files, path, (await entry.oid())!, await entry.mode())
        return true
      },
    })
    return files
  }

  /** Every file of the index (the staging area). */
  async indexFiles(): Promise<FileSet> {
    const files: FileSet = new Map()
    await git.walk({
      ...this.base,
      trees: [git.STAGE()],
      map: async (path, [entry]) => {
        if (!entry) return null
        if ((await entry.type()) === 'blob') this.addVersion(files, path, (await entry.oid())!, await entry.mode())
        return true
      },
    })
    return files
  }

  /** The working tree's version of the given paths (those that exist as files). */
  async workFiles(paths: Iterable<string>): Promise<FileSet> {
    const files: FileSet = new Map()
    for (const path of paths) {
      const stat = await this.context.request.files.stat(this.absolute(path))
      if (stat?.type !== 'file') continue
      const bytes = await this.context.request.files.readFile(this.absolute(path))
      const { oid } = await git.hashBlob({ object: bytes })
      files.set(path, { oid, mode: 0o100644, read: async () => bytes })
    }
    return files
  }

  private addVersion(files: FileSet, path: string, oid: string, mode: number) {
    files.set(path, {
      oid,
      mode,
      read: async () => (await git.readBlob({ ...this.base, oid })).blob,
    })
  }

  async config(path: string): Promise<string | undefined> {
    const value = await git.getConfig({ ...this.base, path })
    return value === undefined || value === null ? undefined : String(value)
  }

  /**
   * Who a commit is by: the environment, then the repository's `user.name`/`user.email`. Without both, git refuses
   * and says how to set them, as git does on a machine that has no identity; there is no global config here, so the
   * advice is the repository's.
   */
  async author(kind: 'AUTHOR' | 'COMMITTER') {
    const env = this.context.request.env
    const seconds = Math.floor(this.context.now() / 1000)
    const offset = new Date(this.context.now()).getTimezoneOffset()
    const name = env[`GIT_${kind}_NAME`] || (await this.config('user.name'))
    const email = env[`GIT_${kind}_EMAIL`] || (await this.config('user.email'))
    if (!name || !email) throw new GitExit(unknownIdentity(kind, name ? 'email address' : 'name'), 128)
    return { name, email, timestamp: seconds, timezoneOffset: offset }
  }
}

/** git's answer to a commit by nobody: who to tell it you are, and how. */
function unknownIdentity(kind: 'AUTHOR' | 'COMMITTER', missing: 'name' | 'email address'): string {
  return (
    `${kind === 'AUTHOR' ? 'Author' : 'Committer'} identity unknown\n\n` +
    '*** Please tell me who you are.\n\n' +
    'Run\n\n' +
    '  git config user.email "you@example.com"\n' +
    '  git config user.name "Your Name"\n\n' +
    "to set this repository's identity (there is no global config in the browser).\n\n" +
    `fatal: unable to auto-detect ${missing} (no user or host to take it from here)\n`
  )
}

/** An object id as git abbreviates it. */
export function short(oid: string): string {
  return oid.slice(0, 7)
}

/** Whether a repository path falls under one of the pathspecs ('' is the whole tree). */
export function matchesPathspec(path: string, specs: readonly string[]): boolean {
  if (specs.length === 0) return true
  return specs.some((spec) => spec === '' || path === spec || path.startsWith(`${spec}/`))
}
