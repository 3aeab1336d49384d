import { createSignal, type Accessor } from 'solid-js'
import { createNewestAnswer } from '../kit/load/newest-answer'
import { askOnce, localAskedMemory, readStorageReport, requestPersistence, type AskedMemory, type StorageManagerLike, type StorageReport } from './persistent-storage'

export interface StorageStatus {
  /** The last reading; undefined until the first one lands. */
  report: Accessor<StorageReport | undefined>
  /** Whether the browser has a way to ask for persistence at all. */
  canRequest: boolean
  requesting: Accessor<boolean>
  /** The answer to the user's own request, if they made one in this tab. */
  answer: Accessor<boolean | undefined>
  refresh(): Promise<void>
  /** The user pressed "Request persistent storage". */
  request(): Promise<void>
  /** History exists (a session was made, or was there at startup): ask for persistence if it was never asked. */
  historyExists(): Promise<void>
}

export interface StorageStatusDeps {
  manager?: StorageManagerLike | undefined
  memory?: AskedMemory
}

/** Reads and asks on the main thread: `persist()` belongs to the page (a browser may show its prompt there). */
export function createStorageStatus(deps: StorageStatusDeps = {}): StorageStatus {
  const manager = 'manager' in deps ? deps.manager : typeof navigator === 'undefined' ? undefined : navigator.storage
  const memory = deps.memory ?? localAskedMemory(typeof localStorage === 'undefined' ? undefined : localStorage)
  const [report, setReport] = createSignal<StorageReport>()
  const [requesting, setRequesting] = createSignal(false)
  const [answer, setAnswer] = createSignal<boolean>()
  // A reading started before a request must not overwrite the one taken after it.
  const readings = createNewestAnswer()
  let asking: Promise<void> | undefined

  const refresh = () => readings.load(() => readStorageReport(manager), { answer: setReport })

  return {
    report,
    canRequest: typeof manager?.persist === 'function',
    requesting,
    answer,
    refresh,
    async request() {
      if (requesting()) return
      setRequesting(true)
      try {
        setAnswer(await requestPersistence(manager, memory))
        await refresh()
      } finally {
        setRequesting(false)
      }
    },
    historyExists() {
      asking ??= askOnce(manager, memory).then((asked) => (asked ? refresh() : undefined))
      return asking
    },
  }
}
