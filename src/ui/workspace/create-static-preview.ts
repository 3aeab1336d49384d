import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import type { PreviewProblem } from '../../workspace/preview/build-preview'
import type { DevServerNeed } from '../../workspace/preview/dev-server'
import { linkedPage } from '../../workspace/preview/references'
import { errorMessage } from '../format/error'
import type { WorkspaceChanges } from './create-workspace-changes'
import type { WorkspaceApi } from './workspace-api'

export type StaticPreviewState =
  | { status: 'loading' }
  /** The page is not in the project. */
  | { status: 'missing'; page: string; need: DevServerNeed | undefined }
  | { status: 'ready'; page: string; html: string; problems: PreviewProblem[]; need: DevServerNeed | undefined }
  | { status: 'error'; message: string }

export interface StaticPreview {
  state: Accessor<StaticPreviewState>
  page: Accessor<string>
  /** Follows a link the frame reported, relative to the page on show; anything but a project page is ignored. */
  navigate(href: string): void
  /** Reads the files again now. */
  reload(): void
}

export const ENTRY_PAGE = '/index.html'
// Edits the page cannot be reading, and that come in bursts (an install, a clone): no rebuild for those.
const IGNORED = /^\/(node_modules|\.git|\.tabcode)(\/|$)/
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
  let dirty = true
  let ticket = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const read = async (path: string) => (await api.readPreviewFile({ projectID, path: root + path })) ?? undefined

  async function build(): Promise<void> {
    dirty = false
    const mine = ++ticket
    const shown = page()
    try {
      const [{ buildPreview }, { devServerNeed }] = await Promise.all([import('../../workspace/preview/build-preview'), import('../../workspace/preview/dev-server')])
      const [document, packageJson] = await Promise.all([buildPreview({ entry: shown, read }), read('/package.json')])
      if (mine !== ticket) return
      const packages = document.problems.filter((problem) => problem.type === 'bare-import').map((problem) => problem.reference)
      const need = devServerNeed(packageJson && new TextDecoder().decode(packageJson), packages)
      setState(document.html ? { status: 'ready', page: shown, html: document.html, problems: document.problems, need } : { status: 'missing', page: shown, need })
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
      if (path === undefined || IGNORED.test(path)) return
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
  }
}
