import { createSignal, type Accessor } from 'solid-js'
import { errorMessage } from '../../kit/format/error'
import { afterFirstFrame } from '../../kit/load/after-first-frame'
import type { OfferedZip } from '../../project/new-project-dialog'
import { addressWithoutLaunch, readLaunchAddress, type LaunchAction } from './launch-address'
import { kindOfLaunchedFile, notOpenedText } from './launched-file'

/** What Chromium hands an installed app it launched (the Launch Handler API; not in TypeScript's DOM types yet). */
export interface LaunchParams {
  readonly targetURL?: string | null
  readonly files: readonly FileSystemHandle[]
}
export interface LaunchQueue {
  setConsumer(consumer: (params: LaunchParams) => void): void
}

export interface LaunchHandling {
  /** Why launches did nothing, each until dismissed (a second one never hides the first). */
  problems: Accessor<readonly string[]>
  dismissProblem(text: string): void
  /** The zip waiting for the user's decision in the new-project dialog (the next one once it closes). */
  offeredZip: Accessor<OfferedZip | undefined>
  closeOffer(): void
  /** Carries out what the address asks and takes it off; then, after the first frame, takes the launch queue's files. */
  start(): () => void
}

/**
 * The address the page carried out already: an app window the launch opened also gets it from the launch queue
 * (Chromium queues every launch), and must not do it twice. Module-wide, as a project switch makes a new workbench.
 */
let handledAddress: string | undefined
let consumedBefore = false
/** Zips the system opened with tabcode, in order; module-wide, so the next still waits after the first made a project (and a new workbench). */
const [zips, setZips] = createSignal<OfferedZip[]>([])

/**
 * How the installed app is launched, carried out: the manifest's shortcuts and share target (an address), and its
 * file handlers (the launch queue). Everything that arrives is untrusted: an export goes through the same import as
 * "Import…" (read-only, its files an untrusted project), a zip waits in the new-project dialog for the user's yes,
 * shared text waits in the prompt box, and what is none of these is said, not dropped in silence.
 */
export function createLaunchHandling(deps: {
  newSession: () => Promise<void>
  draft: (text: string) => Promise<void>
  openLink: (link: string) => Promise<void>
  importFile: (file: File) => Promise<void>
  /** The page's launch queue, where the browser has one. */
  launchQueue: () => LaunchQueue | undefined
}): LaunchHandling {
  const [problems, setProblems] = createSignal<readonly string[]>([])
  const setProblem = (text: string) => setProblems((shown) => [...shown.filter((other) => other !== text), text])

  const run = async (action: LaunchAction) => {
    switch (action.type) {
      case 'none':
        return
      case 'new-session':
        return deps.newSession()
      case 'open-share-link':
        return deps.openLink(action.link)
      case 'draft':
        return deps.draft(action.text)
      case 'unknown':
        setProblem(action.problem)
    }
  }

  const openHandle = async (handle: FileSystemHandle) => {
    if (handle.kind !== 'file') return void setProblem(notOpenedText(handle.name))
    let file: File
    try {
      file = await (handle as FileSystemFileHandle).getFile()
    } catch (error) {
      return void setProblem(`Couldn't read “${handle.name}”: ${errorMessage(error)} Nothing was opened.`)
    }
    const kind = kindOfLaunchedFile(file)
    if (kind === 'session') return deps.importFile(file)
    if (kind === 'other') return void setProblem(notOpenedText(file.name))
    try {
      const data = new Uint8Array(await file.arrayBuffer())
      setZips((waiting) => [...waiting, { fileName: file.name, data }])
    } catch (error) {
      setProblem(`Couldn't read “${file.name}”: ${errorMessage(error)} Nothing was opened.`)
    }
  }

  const consume = async (params: LaunchParams) => {
    const first = !consumedBefore
    consumedBefore = true
    if (params.files.length > 0) {
      // One after another: the import flow queues its own, and the zips wait in order for the dialog.
      for (const handle of params.files) await openHandle(handle)
      return
    }
    // An app window already open, focused by a shortcut or a share (the manifest's `launch_handler`): the address comes here.
    if (!params.targetURL || (first && params.targetURL === handledAddress)) return
    await run(readLaunchAddress(new URL(params.targetURL).search))
  }

  return {
    problems,
    dismissProblem: (text) => setProblems((shown) => shown.filter((other) => other !== text)),
    offeredZip: () => zips()[0],
    closeOffer: () => setZips((waiting) => waiting.slice(1)),
    start: () => {
      const action = readLaunchAddress(window.location.search)
      if (action.type !== 'none') {
        handledAddress = window.location.href
        // Off the address before anything runs: a reload must not create, import or fill again.
        history.replaceState(history.state, '', addressWithoutLaunch(window.location.href))
        void run(action)
      }
      // Files wait in the browser's queue until a consumer is set; the first screen does not.
      return afterFirstFrame(() => deps.launchQueue()?.setConsumer((params) => void consume(params)))
    },
  }
}
