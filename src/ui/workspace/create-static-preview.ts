import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import type { InertReport, PreviewProblem, PreviewScripts } from '../../workspace/preview/build-preview'
import type { DevServerNeed } from '../../workspace/preview/dev-server'
import { linkedPage } from '../../workspace/preview/references'
import { errorMessage } from '../format/error'
import type { WorkspaceChanges } from './create-workspace-changes'
import type { WorkspaceApi } from './workspace-api'

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
    }
  | { status: 'error'; message: string }

export interface StaticPreview {
  state: Accessor<StaticPreviewState>
  page: Accessor<string>
  /** Follows a link the frame reported, relative to the page on show; anything but a project page is ignored. */
  navigate(href: string): void
  /** Reads the files again now. */
  reload(): void
  /** Whether the project's pages run their scripts: not until the user says so, for as long as this preview lives. */
  scripts: Accessor<PreviewScripts>
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
  const [scripts, setScripts] = createSignal<PreviewScripts>('inert')
  let dirty = true
  // What the page on show read or looked for (and package.json): an edit anywhere else cannot change it.
  let watched: ReadonlySet<string> | undefined
  let ticket = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const read = async (path: string) => (await api.readPreviewFile({ projectID, path: root + path })) ?? undefined

  async function build(): Promise<void> {
    dirty = false
    const mine = ++ticket
    const shown = page()
    const mode = scripts()
    try {
      const [{ buildPreview }, { devServerNeed }] = await Promise.all([import('../../workspace/preview/build-preview'), import('../../workspace/preview/dev-server')])
      const [document, packageJson] = await Promise.all([buildPreview({ entry: shown, read, scripts: mode }), read('/package.json')])
      if (mine !== ticket) return
      const packages = document.problems.filter((problem) => problem.type === 'bare-import').map((problem) => problem.reference)
      const need = devServerNeed(packageJson && new TextDecoder().decode(packageJson), packages)
      watched = new Set([...document.files, '/package.json'])
      setState(
        document.html
          ? { status: 'ready', page: shown, html: document.html, problems: document.problems, need, scripts: mode, inert: document.inert }
          : { status: 'missing', page: shown, need },
      )
    } catch (error) {
      if (mine === ticket) setState({ status: 'error', message: errorMessage(error) })
    }
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
    scripts,
    setScripts(next) {
      if (next === scripts()) return
      setScripts(next)
      void build()
    },
  }
}

/** Whether a change at `path` (a file, or a folder removed or replaced whole) reaches one of the `files`. */
function touches(files: ReadonlySet<string>, path: string): boolean {
  if (path === '/' || files.has(path)) return true
  for (const file of files) if (file.startsWith(`${path}/`)) return true
  return false
}
