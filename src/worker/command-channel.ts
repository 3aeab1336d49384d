import { PROTOCOL_VERSION } from '../core/protocol'
import type { CommandChannel } from './session-runner'

export const COMMAND_CHANNEL = 'tabcode:commands'

interface Command {
  protocol: number
  type: 'cancel' | 'status'
  sessionID: string
}

/** Requests between the workers of all open tabs; only the tab that runs the session acts on one. */
export function broadcastCommands(): CommandChannel {
  const channel = new BroadcastChannel(COMMAND_CHANNEL)
  const listeners = { cancel: new Set<(sessionID: string) => void>(), status: new Set<(sessionID: string) => void>() }
  channel.onmessage = (message) => {
    const command = message.data as Partial<Command>
    if (command?.protocol !== PROTOCOL_VERSION || typeof command.sessionID !== 'string') return
    if (command.type !== 'cancel' && command.type !== 'status') return
    for (const listener of listeners[command.type]) listener(command.sessionID)
  }
  const send = (type: Command['type'], sessionID: string) =>
    channel.postMessage({ protocol: PROTOCOL_VERSION, type, sessionID } satisfies Command)
  return {
    cancel: (sessionID) => send('cancel', sessionID),
    onCancel: (listener) => void listeners.cancel.add(listener),
    requestStatus: (sessionID) => send('status', sessionID),
    onStatusRequest: (listener) => void listeners.status.add(listener),
  }
}
