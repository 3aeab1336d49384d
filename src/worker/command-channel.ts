import { PROTOCOL_VERSION } from './protocol'
import type { CommandChannel } from './session-runner'

export const COMMAND_CHANNEL = 'tabcode:commands'

interface CancelCommand {
  protocol: number
  type: 'cancel'
  sessionID: string
}

/** Cancel requests between the workers of all open tabs; only the tab that runs the session acts on one. */
export function broadcastCommands(): CommandChannel {
  const channel = new BroadcastChannel(COMMAND_CHANNEL)
  const listeners = new Set<(sessionID: string) => void>()
  channel.onmessage = (message) => {
    const command = message.data as Partial<CancelCommand>
    if (command?.protocol !== PROTOCOL_VERSION || command.type !== 'cancel' || typeof command.sessionID !== 'string') return
    for (const listener of listeners) listener(command.sessionID)
  }
  return {
    cancel: (sessionID) => channel.postMessage({ protocol: PROTOCOL_VERSION, type: 'cancel', sessionID } satisfies CancelCommand),
    onCancel: (listener) => {
      listeners.add(listener)
    },
  }
}
