import { createSignal, type Accessor } from 'solid-js'
import type { SessionInfo } from '../../core/schema'
import type { ImportOutcome } from '../../core/dto/share'
import type { ClientApi } from '../../core/protocol'
import type { Progress } from '../../core/progress'
import { callback } from '../worker-client'
import { describeImportProblem, type ImportProblem, type ImportSource } from './import-problem'
import { UNTRUSTED_IMPORT_NOTICE } from '../project/trust-text'

export type ImportApi = Pick<ClientApi, 'inspectShareLink' | 'openShareLink' | 'importFile' | 'cancelOperation'>

/** Said when the user cancelled a file's import: the transaction was aborted, so there is nothing to clean up. */
export const IMPORT_CANCELLED_NOTICE = 'Import cancelled. Nothing was imported.'

/** A link waiting for its passphrase; `failure` says why the last one was refused. */
export interface PassphraseRequest {
  link: string
  failure?: string
}

export interface ImportFlow {
  /** Set while the "Open shared session" dialog asks for a passphrase. */
  asking: Accessor<PassphraseRequest | undefined>
  /** The last failed opening, until dismissed or replaced. */
  problem: Accessor<ImportProblem | undefined>
  /** News that belongs to no session (a restored backup) or the work in progress. */
  status: Accessor<string | undefined>
  busy: Accessor<boolean>
  /** How far the file being imported is, while one is; links are small and show none. */
  progress: Accessor<Progress | undefined>
  /** Whether the work running now can be cancelled (a file's import, not yet cancelled). */
  cancellable: Accessor<boolean>
  /** Stops the file's import; its one transaction is aborted, so nothing of it is stored. */
  cancel(): void
  openLink(link: string): Promise<void>
  submitPassphrase(passphrase: string): Promise<void>
  cancelPassphrase(): void
  importFile(file: Blob): Promise<void>
  dismissProblem(): void
  dismissStatus(): void
}

/** One link or file to open; `what` names it while it waits behind another. */
interface Opening {
  working: string
  what: string
  source: ImportSource
  /** Reports its own failures as `problem`. */
  work: () => Promise<void>
}

export const OPENED_LINK_NOTICE = 'Opened a shared session (read-only)'

/**
 * Opening a share link or importing a file, as the user sees it: ask for a passphrase when the link is encrypted,
 * then let the worker decode, validate and write (it refuses before writing anything, with a named error), then
 * open the session it wrote. Every failure becomes its own message; a wrong passphrase asks again.
 */
export function createImportFlow(dependencies: {
  api: ImportApi
  /** Opens the imported session (switching project when it lives in another one) and says `notice` there. */
  open: (session: SessionInfo, notice: string) => void | Promise<void>
}): ImportFlow {
  const { api } = dependencies
  const [asking, setAsking] = createSignal<PassphraseRequest>()
  const [problem, setProblem] = createSignal<ImportProblem>()
  const [status, setStatus] = createSignal<string>()
  const [busy, setBusy] = createSignal(false)
  const [progress, setProgress] = createSignal<Progress>()
  /** The operation id of the file import running now, until it ends or is cancelled. */
  const [operation, setOperation] = createSignal<string>()

  const fail = (error: unknown, source: ImportSource) => {
    setStatus(undefined)
    setProblem(describeImportProblem(error, source))
  }

  const arrive = async (outcome: ImportOutcome, source: 'link' | 'file') => {
    setStatus(undefined)
    if (outcome.kind === 'backup') {
      setStatus(backupSummary(outcome))
      return
    }
    const notice = sessionNotice(outcome.session, source, outcome.duplicate)
    // Its workspace files became a project of their own, which the user has not trusted yet.
    await dependencies.open(outcome.session, outcome.project && outcome.project.trust.type !== 'trusted' ? `${notice}. ${UNTRUSTED_IMPORT_NOTICE}` : notice)
  }

  /**
   * Runs one opening at a time. One that arrives while another is being written (a link opened during a large file
   * import) waits in line and runs next, and the status says so meanwhile: nothing the user opened is dropped.
   */
  const waiting: Opening[] = []
  let running: string | undefined
  const showRunning = () => {
    if (!running) return
    const next = waiting[0]
    const more = waiting.length > 1 ? ` (and ${waiting.length - 1} more)` : ''
    setStatus(next ? `${running} ${next.what}${more} opens when this is done.` : running)
  }
  const run = async (opening: Opening) => {
    if (busy()) {
      waiting.push(opening)
      // Unless the running one already replaced its words (with a passphrase question, a backup's summary).
      if (running && status()?.startsWith(running)) showRunning()
      return
    }
    setBusy(true)
    // A problem of the one before stays up while the next runs: the user still has to read it.
    setProblem(undefined)
    for (let next: Opening | undefined = opening; next; next = waiting.shift()) {
      running = next.working
      showRunning()
      try {
        await next.work()
      } catch (error) {
        // Only opening the session it wrote can still throw; the ones waiting behind it run all the same.
        fail(error, next.source)
      }
      if (status()?.startsWith(next.working)) setStatus(undefined)
    }
    running = undefined
    setBusy(false)
  }

  const openWith = async (link: string, passphrase?: string) => {
    try {
      const outcome = await api.openShareLink({ link, ...(passphrase ? { passphrase } : {}) })
      setAsking(undefined)
      await arrive(outcome, 'link')
    } catch (error) {
      const name = error instanceof Error ? error.name : ''
      if (name === 'ImportWrongPassphraseError' || name === 'ImportPassphraseRequiredError') {
        const described = describeImportProblem(error, 'link')
        setAsking({ link, failure: `${described.headline}. ${described.advice}` })
        return
      }
      setAsking(undefined)
      fail(error, 'link')
    }
  }

  return {
    asking,
    problem,
    status,
    busy,
    progress,
    cancellable: () => operation() !== undefined,
    cancel: () => {
      const operationID = operation()
      if (!operationID) return
      setOperation(undefined)
      setStatus('Cancelling the import…')
      void api.cancelOperation(operationID).catch(() => undefined)
    },
    openLink: (link) =>
      run({
        working: 'Opening the shared session…',
        what: 'The shared link you opened',
        source: 'link',
        work: async () => {
          let encrypted: boolean
          try {
            encrypted = (await api.inspectShareLink(link)).encrypted
          } catch (error) {
            fail(error, 'link')
            return
          }
          if (encrypted) {
            setStatus(undefined)
            setAsking({ link })
            return
          }
          await openWith(link)
        },
      }),
    submitPassphrase: async (passphrase) => {
      const request = asking()
      if (!request) return
      await run({ working: 'Opening the shared session…', what: 'The shared link', source: 'link', work: () => openWith(request.link, passphrase) })
    },
    cancelPassphrase: () => setAsking(undefined),
    importFile: (file) =>
      run({
        working: 'Importing…',
        what: 'The file you picked',
        source: 'file',
        work: async () => {
          const operationID = newOperationID()
          setOperation(operationID)
          setProgress({ type: 'working' })
          try {
            const data = new Uint8Array(await file.arrayBuffer())
            const outcome = await api.importFile({ data, operationID }, callback((report: Progress) => operation() === operationID && setProgress(report)))
            setOperation(undefined)
            setProgress(undefined)
            await arrive(outcome, 'file')
          } catch (error) {
            setOperation(undefined)
            setProgress(undefined)
            if (error instanceof Error && error.name === 'CancelledError') setStatus(IMPORT_CANCELLED_NOTICE)
            else fail(error, 'file')
          }
        },
      }),
    dismissProblem: () => setProblem(undefined),
    dismissStatus: () => setStatus(undefined),
  }
}

function newOperationID(): string {
  return `import-${crypto.randomUUID()}`
}

function sessionNotice(session: SessionInfo, source: 'link' | 'file', duplicate: boolean): string {
  const again = duplicate ? ' · it was opened before, so this is the same copy' : ''
  if (source === 'link') return `${OPENED_LINK_NOTICE}${again}`
  const stamp = session.metadata?.import as { source?: string } | undefined
  const what = stamp?.source === 'opencode' ? 'an opencode session' : 'a session'
  return `Imported ${what} (read-only)${again}`
}

function backupSummary(outcome: Extract<ImportOutcome, { kind: 'backup' }>): string {
  const restored = outcome.imported.length
  const parts = [`Restored ${restored} session${restored === 1 ? '' : 's'} from the backup`]
  if (outcome.skipped) parts.push(`${outcome.skipped} ${outcome.skipped === 1 ? 'was' : 'were'} already here`)
  if (outcome.projects.length) parts.push(`${outcome.projects.length} project${outcome.projects.length === 1 ? '' : 's'} added`)
  return parts.join(' · ')
}
