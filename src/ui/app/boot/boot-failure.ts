import type { DatabaseProblem } from '../../../core/protocol'

/** Why the app could not start, in the shapes the recovery screen knows how to explain. */
export type BootFailure =
  | { kind: 'storage'; problem: DatabaseProblem }
  | { kind: 'protocol'; detail: string }
  | { kind: 'worker'; detail: string }
  | { kind: 'crash'; detail: string }

export interface FailureDescription {
  heading: string
  message: string
  detail?: string
  /** Only damaged or refused storage is worth wiping; nothing else is fixed by deleting the user's data. */
  canReset: boolean
}

export function describeFailure(failure: BootFailure): FailureDescription {
  switch (failure.kind) {
    case 'storage': {
      const problem = failure.problem
      const detail = 'detail' in problem ? problem.detail : undefined
      return {
        heading: "tabcode can't open its storage",
        message: problem.message,
        ...(detail ? { detail } : {}),
        canReset: problem.type === 'corrupt' || problem.type === 'unavailable',
      }
    }
    case 'protocol':
      return {
        heading: "tabcode couldn't start",
        message:
          'This page and its background worker come from different versions of tabcode. Reload to load one version of both.',
        detail: failure.detail,
        canReset: false,
      }
    case 'worker':
      return {
        heading: "tabcode couldn't start",
        message:
          "tabcode's background worker, which keeps your sessions, did not start. Reloading usually fixes this; if it keeps happening, the browser may be blocking workers.",
        detail: failure.detail,
        canReset: false,
      }
    case 'crash':
      return {
        heading: "tabcode couldn't start",
        message: 'Something went wrong and tabcode stopped. Your sessions are stored separately and are not affected.',
        detail: failure.detail,
        canReset: false,
      }
  }
}

/** `Name: message` plus the stack when there is one, for the collapsible details. */
export function errorDetail(error: unknown): string {
  if (error instanceof Error) {
    const head = `${error.name}: ${error.message}`
    if (!error.stack) return head
    // Chromium's stack starts with the same "Name: message" line; Firefox's and Safari's don't.
    return error.stack.startsWith(head) ? error.stack : `${head}\n${error.stack}`
  }
  if (typeof error === 'object' && error !== null && 'name' in error && 'message' in error) {
    return `${String(error.name)}: ${String(error.message)}`
  }
  return String(error)
}

/** Classifies what `connectWorker` (or `start`) threw. */
export function failureFromConnectError(error: unknown): BootFailure {
  const name = error instanceof Error ? error.name : ''
  if (name === 'ProtocolMismatchError') return { kind: 'protocol', detail: errorDetail(error) }
  return { kind: 'worker', detail: errorDetail(error) }
}
