import { createMemo, createSignal, For, Show, type JSX } from 'solid-js'
import type { ToolPart } from '../../core/schema'
import type { WorkspaceInfo } from '../../core/protocol'
import { loadLater } from '../kit/load/load-later'
import { CloseIcon } from '../kit/icons/icons'
import { BackendBadge, type WebContainerControl } from './backend-badge'
import { ChangesView } from './changes-view'
import type { WorkspaceChanges } from './create-workspace-changes'
import { PreviewPane, type PreviewServer, type StaticPreviewSource } from './preview-pane'
import type { TurnChanges } from './session-activity'
import { nextTabIndex } from './tab-keys'
import { TerminalPanel } from './terminal-panel'

// The Files tab (tree, its file actions, editor tabs) loads when first shown: it is not part of the first paint.
const FilesView = loadLater('The Files view', async () => (await import('./files-view')).FilesView)
import type { WorkspaceApi } from './workspace-api'
import './workspace.css'

export type WorkspaceTab = 'files' | 'terminal' | 'changes' | 'preview'

const TABS: { id: WorkspaceTab; label: string }[] = [
  { id: 'files', label: 'Files' },
  { id: 'terminal', label: 'Terminal' },
  { id: 'changes', label: 'Changes' },
  { id: 'preview', label: 'Preview' },
]

export interface WorkspacePanelProps {
  /** Start WebContainer by hand (shown on the badge while the offline workspace serves). */
  webContainer?: WebContainerControl
  id: string
  api: WorkspaceApi
  projectID: string
  /** Undefined until the worker said which backend the project uses (or when it could not say). */
  info: WorkspaceInfo | undefined
  /** Why the workspace could not be reached, in words for the user. */
  problem?: string | undefined
  changes: WorkspaceChanges
  sessionID: string | undefined
  calls: ToolPart[]
  turns: TurnChanges[]
  /** Moves whenever the session may have changed files (the Changes tab reads them again). */
  changeMark: string
  previews: PreviewServer[]
  onHide: () => void
  /** Asks for WebContainer, for a project that needs a dev server; absent while nothing can start it. */
  onStartWebContainer?: (() => void) | undefined
  initialTab?: WorkspaceTab
  /** Told which tab shows, so the owner computes only what that tab needs. */
  onTab?: (tab: WorkspaceTab) => void
}

/**
 * The workspace beside the conversation: files, the session's terminal, its changes and the preview, as tabs
 * (arrow keys move between them, the way the WAI-ARIA tabs pattern has it). A tab stays mounted once opened, so
 * the tree keeps its folds and the terminal its scroll position while the reader looks elsewhere.
 */
export function WorkspacePanel(props: WorkspacePanelProps): JSX.Element {
  const [tab, setTab] = createSignal<WorkspaceTab>(props.initialTab ?? 'files')
  const [visited, setVisited] = createSignal<ReadonlySet<WorkspaceTab>>(new Set([tab()]))
  const tabs = new Map<WorkspaceTab, HTMLButtonElement>()
  const tabID = (id: WorkspaceTab) => `${props.id}-tab-${id}`
  const panelID = (id: WorkspaceTab) => `${props.id}-panel-${id}`
  // One source per project and root, so the static preview lives as long as they do.
  const root = createMemo(() => props.info?.root)
  const previewSource = createMemo((): StaticPreviewSource | undefined => {
    const current = root()
    return current === undefined ? undefined : { api: props.api, projectID: props.projectID, root: current, changes: props.changes }
  })

  const terminalShell = () => {
    const { terminalOpen, terminalRun, terminalCancel, terminalClose } = props.api
    if (!terminalOpen || !terminalRun || !terminalCancel || !terminalClose) return undefined
    return { api: { terminalOpen, terminalRun, terminalCancel, terminalClose }, projectID: props.projectID }
  }

  const select = (id: WorkspaceTab, focus: boolean) => {
    setTab(id)
    props.onTab?.(id)
    setVisited((current) => (current.has(id) ? current : new Set([...current, id])))
    if (focus) tabs.get(id)?.focus()
  }

  return (
    <aside id={props.id} class="workspace-panel" aria-label="Workspace">
      <header class="workspace-head">
        <h2 class="workspace-title">Workspace</h2>
        <Show when={props.info}>{(info) => <BackendBadge info={info()} {...(props.webContainer ? { webContainer: props.webContainer } : {})} />}</Show>
        <button type="button" class="icon-button workspace-hide" aria-label="Hide workspace" title="Hide workspace" onClick={() => props.onHide()}>
          <CloseIcon />
        </button>
      </header>
      <div class="workspace-tabs" role="tablist" aria-label="Workspace views">
        <For each={TABS}>
          {(entry, index) => (
            <button
              ref={(element) => tabs.set(entry.id, element)}
              type="button"
              role="tab"
              id={tabID(entry.id)}
              class="workspace-tab"
              aria-selected={tab() === entry.id}
              aria-controls={panelID(entry.id)}
              tabindex={tab() === entry.id ? 0 : -1}
              onClick={() => select(entry.id, false)}
              onKeyDown={(event) => {
                if (event.altKey || event.ctrlKey || event.metaKey) return
                const next = nextTabIndex(event.key, index(), TABS.length)
                if (next === undefined) return
                event.preventDefault()
                select(TABS[next]!.id, true)
              }}
            >
              {entry.label}
              <Show when={entry.id === 'terminal' && props.calls.length > 0}>
                <span class="workspace-tab-count faint"> {props.calls.length}</span>
              </Show>
            </button>
          )}
        </For>
      </div>
      <For each={TABS}>
        {(entry) => (
          <div
            id={panelID(entry.id)}
            class="workspace-tabpanel"
            role="tabpanel"
            aria-labelledby={tabID(entry.id)}
            hidden={tab() !== entry.id}
            tabindex={entry.id === 'preview' && props.previews.length === 0 && !previewSource() ? 0 : undefined}
          >
            <Show when={visited().has(entry.id)}>{panelContent(entry.id)}</Show>
          </div>
        )}
      </For>
    </aside>
  )

  function panelContent(id: WorkspaceTab): JSX.Element {
    const problem = () => props.problem && <p class="workspace-note problem">Couldn't reach the workspace: {props.problem}</p>
    switch (id) {
      case 'files':
        return (
          <Show when={props.info} fallback={problem() || <p class="workspace-note quiet">Opening the workspace…</p>}>
            {(info) => <FilesView api={props.api} projectID={props.projectID} root={info().root} changes={props.changes} sessionID={props.sessionID} />}
          </Show>
        )
      case 'terminal':
        return <TerminalPanel calls={props.calls} shell={terminalShell()} />
      case 'changes':
        return (
          <Show when={props.sessionID} keyed fallback={<p class="workspace-note quiet">Open a session to see what it changed.</p>}>
            {(sessionID) => <ChangesView api={props.api} sessionID={sessionID} turns={props.turns} mark={props.changeMark} changes={props.changes} />}
          </Show>
        )
      case 'preview':
        return (
          <PreviewPane
            servers={props.previews}
            project={previewSource()}
            info={props.info}
            active={tab() === 'preview'}
            onStartWebContainer={props.onStartWebContainer}
          />
        )
    }
  }
}
