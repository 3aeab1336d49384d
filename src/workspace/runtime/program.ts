import type { Workspace } from '../workspace'

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
}

export interface ProgramResult {
  exitCode: number
}

export type Program = (request: ProgramRequest) => Promise<ProgramResult>

/** What a program answers when it was stopped: 130 after an abort, as a shell reports it. */
export const ABORTED_EXIT_CODE = 130
