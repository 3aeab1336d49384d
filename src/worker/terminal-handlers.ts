import * as Comlink from 'comlink'
import { AppError, NotFoundError } from '../core/errors'
import type { WorkerHandlers } from '../core/protocol'
import type { Workspace } from '../workspace/workspace'

type TerminalHandlers = Pick<WorkerHandlers, 'terminalOpen' | 'terminalRun' | 'terminalCancel' | 'terminalClose'>

/** One command at a time per terminal, as at a real prompt; the page queues what is typed meanwhile. */
export class TerminalBusyError extends AppError<{ terminalID: string }> {
  constructor(terminalID: string) {
    super('TerminalBusyError', 'A command is still running in this terminal; stop it with Ctrl+C first.', { terminalID })
  }
}

interface Terminal {
  projectID: string
  /**
   * Carried explicitly rather than kept in one just-bash instance per terminal: just-bash resets cwd and
   * variables on every `exec` anyway, and each run already builds its own shell over the workspace (so the file
   * tree, snapshots and the agent's commands see one set of files). The run reports where it ended.
   */
  cwd: string
  env: Record<string, string>
  onOutput: (chunk: string) => unknown
  running?: AbortController
}

/**
 * The user's terminals: each runs command lines in its project's workspace (the shell the bash tool uses) and
 * keeps its cwd and environment for its life. Output goes only to the page that opened it, through its callback.
 */
export function terminalHandlers(workspace: (projectID: string) => Promise<Workspace>): TerminalHandlers {
  const terminals = new Map<string, Terminal>()
  let opened = 0
  const find = (terminalID: string) => {
    const terminal = terminals.get(terminalID)
    if (!terminal) throw new NotFoundError('terminal', terminalID)
    return terminal
  }
  return {
    terminalOpen: async ({ projectID }, onOutput) => {
      const { root } = await workspace(projectID)
      const terminalID = `term_${++opened}`
      terminals.set(terminalID, { projectID, cwd: root, env: {}, onOutput })
      return { terminalID, cwd: root, home: root }
    },
    terminalRun: async ({ terminalID, command }) => {
      const terminal = find(terminalID)
      if (terminal.running) throw new TerminalBusyError(terminalID)
      const controller = new AbortController()
      terminal.running = controller
      // Each chunk is a message on the callback's own port; waiting for the last answer means every chunk before
      // it arrived, so the page prints the next prompt after all the output.
      let delivered: Promise<unknown> = Promise.resolve()
      try {
        const target = await workspace(terminal.projectID)
        const result = await target.exec(command, {
          cwd: terminal.cwd,
          env: terminal.env,
          signal: controller.signal,
          onOutput: (chunk) => {
            for (const piece of pieces(chunk)) delivered = Promise.resolve(terminal.onOutput(piece))
          },
        })
        if (result.shell) {
          terminal.cwd = result.shell.cwd
          terminal.env = result.shell.env
        }
        await delivered.catch(() => undefined)
        return { exitCode: result.exitCode, cwd: terminal.cwd, aborted: result.aborted }
      } finally {
        if (terminal.running === controller) delete terminal.running
      }
    },
    terminalCancel: (terminalID) => {
      terminals.get(terminalID)?.running?.abort()
    },
    terminalClose: (terminalID) => {
      const terminal = terminals.get(terminalID)
      if (!terminal) return
      terminal.running?.abort()
      terminals.delete(terminalID)
      // The page's callback holds a port open on both sides until released.
      ;(terminal.onOutput as Partial<Comlink.Remote<() => void>>)[Comlink.releaseProxy]?.()
    },
  }
}

/**
 * A statement's output comes whole when it ends (a `seq` of a million lines is one 7 MB string): it crosses to the
 * page in pieces, so no one message makes the page spend long copying it in.
 */
const PIECE_CHARS = 64 * 1024

function* pieces(chunk: string): Generator<string> {
  let start = 0
  while (start < chunk.length) {
    let end = Math.min(chunk.length, start + PIECE_CHARS)
    // A surrogate pair stays in one piece.
    const last = chunk.charCodeAt(end - 1)
    if (end < chunk.length && last >= 0xd800 && last <= 0xdbff) end--
    yield chunk.slice(start, end)
    start = end
  }
}
