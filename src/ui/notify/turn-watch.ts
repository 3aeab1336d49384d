import type { SessionEvent } from '../../core/event'
import type { MessageError, PermissionAsk } from '../../core/schema'

/** Something the user would want to hear about while looking elsewhere. */
export type Happening =
  | {
      type: 'turn-ended'
      sessionID: string
      outcome: 'finished' | 'stopped' | 'failed'
      /** What ended a failed turn. */
      error?: MessageError
    }
  | { type: 'waiting'; sessionID: string; ask: PermissionAsk }

/** What the watch remembers of a running session: that it ran, and the error its turn has ended with so far. */
interface Running {
  error?: MessageError | undefined
}

/** Sessions seen running, by id. Only these can end: an `idle` for a session never seen busy is a repair or a Stop of nothing. */
export type TurnMemory = Readonly<Record<string, Running>>

export const EMPTY_TURN_MEMORY: TurnMemory = Object.freeze({})

/**
 * Folds one worker event into what the watch remembers and says what happened, if anything worth telling. A turn ends
 * when a session seen busy goes idle; its outcome is the last error its replies (or the runner) reported: none is
 * finished, the user's Stop is stopped, any other is failed. A permission ask or a question waits as soon as it is asked.
 */
export function watchTurns(memory: TurnMemory, event: SessionEvent): { memory: TurnMemory; happening?: Happening } {
  switch (event.type) {
    case 'session.status': {
      const { sessionID, status } = event
      const running = memory[sessionID]
      if (status.type !== 'idle') return running ? { memory } : { memory: { ...memory, [sessionID]: {} } }
      if (!running) return { memory }
      const { [sessionID]: _ended, ...rest } = memory
      return { memory: rest, happening: turnEnded(sessionID, running.error) }
    }
    case 'message.updated': {
      const { info } = event
      const running = memory[info.sessionID]
      if (info.role !== 'assistant' || !running) return { memory }
      // The newest reply's state wins: a step that went on after an error carries none.
      return { memory: { ...memory, [info.sessionID]: { error: info.error } } }
    }
    case 'session.error': {
      const running = event.sessionID ? memory[event.sessionID] : undefined
      if (!event.sessionID || !running) return { memory }
      return { memory: { ...memory, [event.sessionID]: { error: event.error } } }
    }
    case 'permission.asked':
      return { memory, happening: { type: 'waiting', sessionID: event.ask.sessionID, ask: event.ask } }
    default:
      return { memory }
  }
}

function turnEnded(sessionID: string, error: MessageError | undefined): Happening {
  if (!error) return { type: 'turn-ended', sessionID, outcome: 'finished' }
  if (error.name === 'MessageAbortedError') return { type: 'turn-ended', sessionID, outcome: 'stopped' }
  return { type: 'turn-ended', sessionID, outcome: 'failed', error }
}
