import type { StoreContext } from '../session/context'
import type { WorkerHandlers } from './protocol'

type RunHandlers = Pick<WorkerHandlers, 'prompt' | 'cancel' | 'resume' | 'openSession' | 'flush' | 'todos'>

/** The agent loop's operations: prompt, cancel, resume, repair on open. */
export function runHandlers(_ready: () => StoreContext): RunHandlers {
  return {
    prompt: () => {
      throw new Error('The agent loop is not available yet')
    },
    cancel: () => {},
    resume: () => {},
    openSession: () => ({ repaired: false }),
    flush: () => {},
    todos: () => [],
  }
}
