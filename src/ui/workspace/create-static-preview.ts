import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import type { InertReport, PreviewDocument, PreviewProblem, PreviewScripts } from '../../workspace/preview/build-preview'
import type { DevServerNeed } from '../../workspace/preview/dev-server'
import { linkedPage } from '../../workspace/preview/references'
import { previewMode } from '../../workspace/preview/script-grant'
import { errorMessage } from '../kit/format/error'
import type { WorkspaceChanges } from './create-workspace-changes'
import type { WorkspaceApi } from './workspace-api'
import { createNewestAnswer } from '../kit/load/newest-answer'

export type StaticPreviewState =
  | { status: 'loading' }
  /** The page is not in the project. */
  | { status: 'missing'; page: string; need: DevServerNeed | undefined }
  | {
      status: 'ready'
      page: string
      html: string
      problems: PreviewProblem[]
      need: DevServerNeed | undefined
      /** Whether this document runs the page's scripts (the frame's sandbox must match), and what it left out if not. */
      scripts: PreviewScripts
      inert: InertReport
      /** The user ran an earlier version of this page, and it changed since: it is inert again. */
      changed: boolean
    }
  | { status: 'error'; message: string }

export interface StaticPreview {
  state: Accessor<StaticPreviewState>
  page: Accessor<string>
  /** Follows a link the frame reported, relative to the page on show; anything but a project page is ignored. */
  navigate(href: string): void
  /** Reads the files again now. */
  reload(): void
  /**
   * Runs the page on show, as it is shown (`run`), or takes that back (`inert`). The grant is for that document: once
   * the page or anything it runs changes, it shows inert again until the user runs it again (script-grant.ts).
   */
  setScripts(scripts: PreviewScripts): void
}

export const ENTRY_PAGE = '/index.html'
const SETTLE_MS = 200

/**
 * The project's page as a self-contained document for the preview frame, built again ~200 ms after the project's
 * files stop changing, while `active` (a change seen while hidden rebuilds on the next show). The builder loads on
 * first use. Owner-bound.
 */
export function createStaticPreview(options: {
  api: Pick<WorkspaceApi, 'readPreviewFile'>
  projectID: string
  root: string
  changes: WorkspaceChanges
  active: Accessor<boolean>
}): StaticPreview {
  const { api, projectID, root } = options
  const [state, setState] = createSignal<StaticPreviewState>({ status: 'loading' })
  const [page, setPage] = createSignal(ENTRY_PAGE)
  // Each page's grant, by the digest of the document the user ran; plain state, read when a page is shown.
  const grants = new Map<string, string>()
  let built: { page: string; document: PreviewDocument; need: DevServerNeed | undefined } | undefined
  let dirty = true
  // What the page on show read or looked for (and package.json): an edit anywhere else cannot change it.
  let watched: ReadonlySet<string> | undefined
  const newest = createNewestAnswer()
  let timer: ReturnType<typeof setTimeout> | undefined

  const read = async (path: string) => (await api.readPreviewFile({ projectID, path: root + path })) ?? undefined

  async function build(): Promise<void> {
    dirty = false
    const shown = page()
    const ask = async () => {
      const [{ buildPreview }, { devServerNeed }] = await Promise.all([import('../../workspace/preview/build-preview'), import('../../workspace/preview/dev-server')])
      const [document, packageJson] = await Promise.all([buildPreview({ entry: shown, read }), read('/package.json')])
      return { document, packageJson, devServerNeed }
    }
    await newest.load(ask, {
      answer: ({ document, packageJson, devServerNeed }) => {
        const packages = document.problems.filter((problem) => problem.type === 'bare-import').map((problem) => problem.reference)
        const need = devServerNeed(packageJson && new TextDecoder().decode(packageJson), packages)
        watched = new Set([...document.files, '/package.json'])
        built = { page: shown, document, need }
        show()
      },
      failure: (error) => setState({ status: 'error', message: errorMessage(error) }),
    })
  }

  /** Shows the last page built, running only if the user ran that very document. */
  function show() {
    if (!built) return
    const { page: shown, document, need } = built
    if (!document.documents.run) {
      setState({ status: 'missing', page: shown, need })
      return
    }
    const mode = previewMode(grants, shown, document.digest)
    setState({
      status: 'ready',
      page: shown,
      html: document.documents[mode.scripts],
      problems: document.problems,
      need,
      scripts: mode.scripts,
      inert: document.inert,
      changed: mode.scripts === 'inert' && mode.changed,
    })
  }

  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(() => void build(), SETTLE_MS)
  }
  onCleanup(() => clearTimeout(timer))

  onCleanup(
    options.changes.subscribe((change) => {
      const path = change.path === root ? '/' : change.path.startsWith(`${root}/`) ? change.path.slice(root.length) : undefined
      if (path === undefined || (watched && !touches(watched, path))) return
      dirty = true
      if (options.active()) schedule()
    }),
  )
  createEffect(
    on(options.active, (active) => {
      if (active && dirty) void build()
    }),
  )

  return {
    state,
    page,
    navigate(href) {
      const next = linkedPage(page(), href)
      if (!next) return
      setPage(next)
      void build()
    },
    reload: () => void build(),
    setScripts(next) {
      // The document on show is the one the user saw: running it needs no new read, which could bring another.
      if (!built || !built.document.documents.run) return
      if (next === 'run') grants.set(built.page, built.document.digest)
      else grants.delete(built.page)
      show()
    },
  }
}

/** Whether a change at `path` (a file, or a folder removed or replaced whole) reaches one of the `files`. */
function touches(files: ReadonlySet<string>, path: string): boolean {
  if (path === '/' || files.has(path)) return true
  for (const file of files) if (file.startsWith(`${path}/`)) return true
  return false
}
