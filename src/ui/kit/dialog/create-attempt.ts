import { createSignal, type Accessor } from 'solid-js'
import { errorMessage } from '../format/error'

/** What a dialog's footer reads of its action: whether it runs, and why the last try failed. */
export interface Attempt {
  busy: Accessor<boolean>
  failure: Accessor<string | undefined>
  /** Runs the action. While it runs the dialog waits; a failure is kept for the dialog to show and frees it again. */
  run(work: () => unknown): Promise<void>
}

/** The state of a dialog's one action; `describe` words a failure (the worker's readable message by default). */
export function createAttempt(describe: (error: unknown) => string = errorMessage): Attempt {
  const [busy, setBusy] = createSignal(false)
  const [failure, setFailure] = createSignal<string>()
  return {
    busy,
    failure,
    async run(work) {
      setBusy(true)
      setFailure(undefined)
      try {
        await work()
      } catch (error) {
        setFailure(describe(error))
        setBusy(false)
      }
    },
  }
}
