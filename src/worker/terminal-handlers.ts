import * as Comlink from 'comlink'
import { defineError, NotFoundError } from '../core/errors'
import type { Handlers } from '../core/protocol/base'
import type { TerminalApi } from '../core/protocol/terminal'
import type { Workspace } from '../workspace/workspace'
import { OutputPacer, skippedOutputNote, type PacerLimits } from '../core/output-pacer'

/** One command at a time per terminal, as at a real prompt; the page queues what is typed meanwhile. */
export const TerminalBusyError = defineError('TerminalBusyError', (terminalID: string) => ({
  message: 'A command is still running in this terminal; stop it with Ctrl+C first.',
  data: { terminalID },
}))

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
export function terminalHandlers(workspace: (projectID: string) => Promise<Workspace>): Handlers<TerminalApi> {
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
      // One piece at a time, each once the page has shown the last (its callback resolves then): the output of a
      // command that prints faster than a screen can show waits here, bounded, and only its newest part crosses. A
      // page that went away (a released callback throws) just takes nothing more.
      const output = new OutputPacer(
        { write: (piece, done) => void Promise.resolve(piece).then(terminal.onOutput).then(done, done), next: (send) => send() },
        PAGE_BOUND,
        skippedOutputNote,
      )
      try {
        const target = await workspace(terminal.projectID)
        const result = await target.exec(command, {
          cwd: terminal.cwd,
          env: terminal.env,
          signal: controller.signal,
          onOutput: (chunk) => void output.output(chunk),
          // The terminal is the user's own: a runtime's notice (Python's first download) shows in it as it comes.
          onNotice: (text) => void output.output(text),
        })
        if (result.shell) {
          terminal.cwd = result.shell.cwd
          terminal.env = result.shell.env
        }
        // Stopped: what waits is not worth showing. Either way the page prints the next prompt after the output.
        if (result.aborted) output.discardOutput()
        await output.drained()
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
 * What crosses to the page: pieces of at most 64 K characters or 1,024 lines (a statement's output comes whole when
 * it ends, so a `seq` of a million lines is one 7 MB string), and no more than a screen and its 5,000-line scrollback
 * show waiting; older output is skipped, with a note. The page slices each piece again, per frame.
 */
const PAGE_BOUND: PacerLimits = { sliceChars: 64 * 1024, sliceLines: 1024, keepChars: 1024 * 1024, keepLines: 5000 }
