import type { RuntimeDownload, Workspace } from '../workspace'

/**
 * A program the offline shell runs as a command (`python`, `node`, `git`): the one contract between the shell
 * and the runtimes behind those commands, so each runtime can be built, loaded and tested on its own.
 */

/** The files a program may touch: the project's own workspace, never the app's storage. */
export type ProgramFiles = Pick<Workspace, 'root' | 'readFile' | 'readText' | 'writeFile' | 'list' | 'stat' | 'remove' | 'mkdir'>

export interface ProgramRequest {
  /** The command line as the shell split it; `argv[0]` is the name it was called by (`python3`, `node`, `git`). */
  argv: string[]
  /** Absolute, inside `files.root`. */
  cwd: string
  env: Record<string, string>
  /** Everything piped in (empty when nothing is). */
  stdin: string
  files: ProgramFiles
  /** Aborted on Stop and on the command's timeout; a program must end promptly (terminate its engine). */
  signal: AbortSignal
  onStdout: (chunk: string) => void
  onStderr: (chunk: string) => void
  /**
   * What the runtime itself has to say to the user (its first download's progress), never part of the program's
   * output: the model reads that output, and a line of ours in it reads like something the project printed.
   */
  onNotice?: (text: string) => void
  /** The runtime's first download as numbers, for a bar (`ExecOptions.onDownload`); the notice says it in words. */
  onDownload?: (download: RuntimeDownload) => void
  /**
   * How `git` reaches a remote over HTTP(S) (clone, fetch, pull, push). Given to `git` only: every other program
   * runs without network. Absent, git has no remotes to reach.
   */
  remotes?: GitRemotes
}

/**
 * What git's remote commands need from the app: the CORS proxy the user set (none by default) and the tokens kept
 * per host. A token never passes through here to anything but isomorphic-git's auth callbacks.
 */
export interface GitRemotes {
  /** The CORS proxy URL set in Settings, if any; requests go straight to the server otherwise. */
  corsProxy(): Promise<string | undefined>
  /** The stored token for a host (`example.com:8080`), if one is kept. */
  token(host: string): Promise<string | undefined>
  /** Asks the user for a host's token (a dialog); undefined when they cancel. */
  askToken(input: { host: string; url: string }, signal: AbortSignal): Promise<string | undefined>
  /** Keeps a token the server accepted. */
  saveToken(host: string, token: string): Promise<void>
  /** Drops a stored token the server rejected. */
  forgetToken(host: string): Promise<void>
}

export interface ProgramResult {
  exitCode: number
}

export type Program = (request: ProgramRequest) => Promise<ProgramResult>

/** What a program answers when it was stopped: 130 after an abort, as a shell reports it. */
export const ABORTED_EXIT_CODE = 130
