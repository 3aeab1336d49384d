import type { ToolPart } from '../../core/schema'
import { commandOutput } from '../kit/format/tool-summary'

/** A bash call as the terminal shows it. */
export interface TerminalEntry {
  id: string
  /** Undefined while the model is still writing the input. */
  command: string | undefined
  output: string
  state:
    | { type: 'pending' }
    | { type: 'running' }
    | { type: 'exited'; code: number | undefined }
    | { type: 'failed'; message: string; interrupted: boolean }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/**
 * What the terminal prints for one bash call: the command, what it wrote (streamed in `metadata.output` while it
 * runs, and kept there after), and how it ended (`metadata.exit`).
 */
export function terminalEntry(part: ToolPart): TerminalEntry {
  const state = part.state
  const command = text(state.input.command)
  switch (state.status) {
    case 'pending':
      return { id: part.id, command, output: '', state: { type: 'pending' } }
    case 'running':
      return { id: part.id, command, output: text(state.metadata?.output) ?? '', state: { type: 'running' } }
    case 'completed': {
      const exit = state.metadata.exit
      return {
        id: part.id,
        command,
        // Never the model's `<shell_metadata>` notes: parts stored before the metadata left them out carry them.
        output: commandOutput(text(state.metadata.output) ?? state.output),
        state: { type: 'exited', code: typeof exit === 'number' ? exit : undefined },
      }
    }
    case 'error':
      return {
        id: part.id,
        command,
        output: state.metadata?.output ?? '',
        state: { type: 'failed', message: state.error, interrupted: state.metadata?.interrupted === true },
      }
  }
}

/** Words, not only colour: "running", "exit 0", "exit 2", "interrupted", "failed: …". */
export function describeEnd(state: TerminalEntry['state']): string {
  switch (state.type) {
    case 'pending':
      return 'starting…'
    case 'running':
      return 'running…'
    case 'exited':
      return state.code === undefined ? 'done' : `exit ${state.code}`
    case 'failed':
      return state.interrupted ? 'interrupted' : `failed: ${state.message}`
  }
}
