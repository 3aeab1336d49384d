import { createComponent, createEffect, createSignal, For, lazy, on, onCleanup, onMount, Show, Suspense, type JSX } from 'solid-js'
import type { Project } from '../../../core/schema'
import { Banner } from '../../kit/banner/banner'
import { SidebarIcon } from '../../kit/icons/icons'
import { createShortcuts } from '../../kit/keyboard/create-shortcuts'
import { EmptyState } from '../../session/empty-state'
import { createProviderStore, ProviderStoreContext } from '../../settings/create-provider-store'
import { Sidebar } from '../sidebar/sidebar'
import { createSessionStore } from '../../store/create-session-store'
import { adjacentSession } from '../../store/session-list'
import { SessionStoreContext } from '../../store/session-store-context'
import { callback, type WorkerConnection } from '../../worker-client'
import { createPanelState } from '../../workspace/create-panel-state'
import { WorkspaceDock } from '../../workspace/workspace-dock'
import { WorkspaceToggle } from '../../workspace/workspace-toggle'
import { createWebContainerStart } from '../workspace-boot/create-webcontainer-start'
import { ProjectPicker } from '../../project/project-picker'
import { createProjectTrust, ProjectTrustContext } from '../../project/create-project-trust'
import { createWorkerNotices } from './create-worker-notices'
import { createGitTokenAsks, GitTokenDialog } from '../../git/git-token-dialog'
import { createToasts } from '../../kit/banner/create-toasts'
import { ToastList } from '../../kit/banner/toast-list'
import { makeOpenTarget, type Arrival, type SessionNotice } from './open-target'
import { hashForSession, sessionFromHash, shareLinkFromHash } from '../../kit/routing/session-location'
import { ProgressMeter } from '../../kit/progress/progress-meter'
import { createImportFlow } from '../../share/create-import-flow'
import { importProblemText } from '../../share/import-problem'
import { droppedJsonFile, ImportButton } from '../../share/import-button'
import { OpenShareDialog } from '../../share/open-share-dialog'
import { createSyncStatus, fetchesOnDemand } from '../../sync/create-sync-status'
import { SyncIndicator } from '../../sync/sync-indicator'
import { createLaunchHandling, type LaunchQueue } from '../launch/create-launch-handling'
import './workbench.css'

// The open session (messages, markdown, parts, the prompt box) is a chunk of its own, fetched and evaluated after the
// splash's first frame (app.tsx): with the rest of the bundle its evaluation made a first visit's longest task
// (issue 18), and a first visit has no session to show yet. A session opened before it arrives leaves the pane empty
// for that moment. Not `lazy` under a Suspense: that boundary would also catch the resources inside the view (fork
// links, the revert preview, the share dialog) and blank the whole session while one loads.
type SessionViewComponent = typeof import('../../session/session-view').SessionView
const [loadedSessionView, setLoadedSessionView] = createSignal<SessionViewComponent>()
const [sessionViewFailure, setSessionViewFailure] = createSignal<unknown>()
let sessionViewLoading: Promise<void> | undefined

/** Fetches and evaluates the session view's chunk now (once), e.g. while the worker boots. */
export function preloadSessionView(): Promise<void> {
  // marked builds its grammar's regexes when it is evaluated (~20 ms here): evaluated with the view it made one task
  // of both, so it comes first, in a task of its own. (Either import failing ends up below.)
  sessionViewLoading ??= import('marked').then(() => import('../../session/session-view')).then(
    (module) => void setLoadedSessionView(() => module.SessionView),
    (error: unknown) => {
      // Shown by the app's error boundary, as a failed lazy component would be; a later open tries again.
      sessionViewLoading = undefined
      setSessionViewFailure(() => error)
    },
  )
  return sessionViewLoading
}

/** The session view once its chunk is in; nothing until then. A failed load throws to the error boundary. */
function SessionViewWhenLoaded(props: Parameters<SessionViewComponent>[0]): JSX.Element {
  void preloadSessionView()
  return (
    <Show when={loadedSessionView()} fallback={<>{throwIfFailed(sessionViewFailure())}</>}>
      {(View) => createComponent(View(), props)}
    </Show>
  )
}

function throwIfFailed(failure: unknown): undefined {
  if (failure !== undefined) throw failure
  return undefined
}

// Opened on demand: kept out of the first-paint bundle.
const ShortcutsDialog = lazy(() => import('../../kit/keyboard/shortcuts-dialog').then((module) => ({ default: module.ShortcutsDialog })))

export const PROMPT_ID = 'prompt'

/** Said when shared text waits in a new session's prompt box. */
export const SHARED_DRAFT_NOTICE = 'The shared text is in the prompt box of a new session. Nothing was sent: read it before you send it.'

// The settings dialog (forms, the model table) loads on first open, so the first screen stays small.
const SettingsDialog = lazy(() => import('../../settings/settings-dialog'))
// Usage over time reads every stored reply: loaded, and asked for, only when the user opens it.
const UsageDialog = lazy(() => import('../../usage/usage-dialog'))

/** The app once storage is open: sidebar, the open session, and the notices about this tab. */
export function Workbench(props: {
  connection: WorkerConnection
  project: Project
  onSwitchProject?: (project: Project, arrival?: Arrival, projectNote?: string) => void
  /** Said by the project picker once this project is open (what its import left out). */
  projectNote?: string | undefined
  /** Read once, on mount: the session is opened from the fragment the switch set. */
  arrival?: Arrival | undefined
}): JSX.Element {
  // Read before the session store: opening a session with no messages here asks it whether to fetch them (on demand).
  const sync = createSyncStatus(props.connection.api, props.connection.listen)
  const store = createSessionStore(props.connection, {
    projectID: props.project.id,
    fetchesOnDemand: () => sync.ready.then(fetchesOnDemand),
  })
  // News about the session just opened ("Branched into …"), shown while that session stays open.
  // News about the session just opened ("Branched into …", an opened link) and the project just made: toasts that
  // go by themselves, so they never stand stale beside a later error.
  const toasts = createToasts()
  const setNotice = (notice: SessionNotice | undefined) => notice && toasts.show(notice.text)
  if (props.arrival?.notice) toasts.show(props.arrival.notice)
  if (props.projectNote) toasts.show(props.projectNote)
  if (props.arrival?.prompt) store.drafts.fill(props.arrival.sessionID, props.arrival.prompt)
  const notices = createWorkerNotices(props.connection)
  const gitTokens = createGitTokenAsks(props.connection)
  const webcontainer = createWebContainerStart(props.connection.api)
  const [sidebarOpen, setSidebarOpen] = createSignal(false)
  const [helpOpen, setHelpOpen] = createSignal(false)
  const [settingsOpen, setSettingsOpen] = createSignal(false)
  const [usageOpen, setUsageOpen] = createSignal(false)
  /** Settings was opened at its Sync section (the indicator's fix). */
  const [settingsAtSync, setSettingsAtSync] = createSignal(false)
  const showSettings = (atSync = false) => {
    setSettingsAtSync(atSync)
    setSettingsOpen(true)
  }
  const providers = createProviderStore(props.connection.api)
  const trust = createProjectTrust(props.connection.api, props.project, props.connection.listen)
  const workspace = createPanelState()

  const openSession = (sessionID: string) => {
    setSidebarOpen(false)
    void store.current.open(sessionID)
  }
  const openTarget = makeOpenTarget({
    projectID: props.project.id,
    store,
    switchProject: (project, arrival) => props.onSwitchProject?.(project, arrival),
    open: openSession,
    setNotice,
    focusPrompt,
  })
  /** A session the address names (Back, Forward, a pasted link): one of another project opens with its project. */
  const openFromAddress = async (sessionID: string) => {
    const session = await props.connection.api.getSession(sessionID).catch(() => undefined)
    if (session && session.projectID !== props.project.id) await openTarget({ session })
    // A session of no project here opens to say so.
    else await store.current.open(sessionID)
  }
  // Share links and imported files: opened into this project (or the one an export's files made), then shown.
  const imports = createImportFlow({
    api: props.connection.api,
    open: async (session, text) => {
      // The share fragment gives way to the session's, so a reload opens the session instead of importing again.
      history.replaceState(history.state, '', hashForSession(session.id))
      await openTarget({ session, notice: text })
    },
  })
  /** After a link failed or was cancelled, the fragment names the open session again (or nothing). */
  const leaveShareFragment = () => {
    if (!shareLinkFromHash(window.location.hash)) return
    const hash = hashForSession(store.current.id())
    history.replaceState(history.state, '', hash || window.location.pathname + window.location.search)
  }
  /** A new session; `draft` is text for its prompt box (shared with the app), never sent without the user. */
  const createSession = async (draft?: string) => {
    setSidebarOpen(false)
    // Where focus was when the user asked: by the time the session exists they may have moved on (pressed Rename).
    const asked = document.activeElement
    const session = await store.createSession()
    if (!session) return
    if (draft !== undefined) {
      store.drafts.fill(session.id, draft)
      toasts.show(SHARED_DRAFT_NOTICE)
    }
    focusPrompt(asked)
  }
  // The installed app's shortcuts, share target and file handlers (the manifest in vite.config.ts).
  const launches = createLaunchHandling({
    newSession: () => createSession(),
    draft: (text) => createSession(text),
    openLink: (link) => imports.openLink(link),
    importFile: (file) => imports.importFile(file),
    launchQueue: () => (window as { launchQueue?: LaunchQueue }).launchQueue,
  })
  const step = (direction: -1 | 1) => {
    const next = adjacentSession(
      store.list.items().map((info) => info.id),
      store.current.id(),
      direction,
    )
    if (next) openSession(next)
  }

  createShortcuts({
    'new-session': () => void createSession(),
    'previous-session': () => step(-1),
    'next-session': () => step(1),
    'focus-prompt': () => focusPrompt(),
    'show-shortcuts': () => setHelpOpen(true),
  })

  // The fragment follows the open session, and a changed fragment (Back or Forward, a pasted link) opens its session.
  // Arrived from a branch in another project: the session opens from the fragment, and its prompt takes the focus
  // the old workbench's menu had.
  if (props.arrival) onMount(() => focusPrompt(document.body))
  onMount(() => onCleanup(launches.start()))
  onMount(() => {
    const initial = sessionFromHash(window.location.hash)
    if (initial) void store.current.open(initial)
    const link = shareLinkFromHash(window.location.hash)
    if (link) void imports.openLink(link)
    const onHashChange = () => {
      const shared = shareLinkFromHash(window.location.hash)
      if (shared) {
        void imports.openLink(shared)
        return
      }
      const target = sessionFromHash(window.location.hash)
      if (target && target !== store.current.id()) void openFromAddress(target)
    }
    window.addEventListener('hashchange', onHashChange)
    onCleanup(() => window.removeEventListener('hashchange', onHashChange))
  })
  createEffect(
    on(store.current.id, (sessionID, previous) => {
      // A share link waiting to be opened (or to have its problem read) keeps its fragment until it is dealt with.
      if (!sessionID && shareLinkFromHash(window.location.hash)) return
      const hash = hashForSession(sessionID)
      if (window.location.hash === hash) return
      const url = hash || window.location.pathname + window.location.search
      // Going from one session to another is a step Back returns from (and Forward repeats, through the
      // fragment's change above); the first session this tab shows, or none, takes the entry it arrived with.
      if (previous && sessionID) history.pushState(history.state, '', url)
      else history.replaceState(history.state, '', url)
    }),
  )

  return (
    <SessionStoreContext.Provider value={store}>
      <ProviderStoreContext.Provider value={providers}>
        <ProjectTrustContext.Provider value={trust}>
          <div class="workbench-shell">
            <Show when={notices.reloadRequired()}>
              <Banner
                tone="warning"
                message={`${notices.reloadRequired()} Reload this tab to keep working.`}
                actionLabel="Reload"
                onAction={() => window.location.reload()}
              />
            </Show>
            <Show when={notices.foreignTab()}>
              <Banner
                tone="warning"
                message="Another tab runs a different version of tabcode; reload it."
                onDismiss={notices.dismissForeignTab}
              />
            </Show>
            <Show when={store.problem()}>
              <Banner tone="danger" role="alert" message={store.problem()!} onDismiss={store.dismissProblem} />
            </Show>
            <Show when={imports.problem()}>
              {(problem) => (
                <Banner
                  tone="danger"
                  role="alert"
                  message={importProblemText(problem())}
                  onDismiss={() => {
                    imports.dismissProblem()
                    leaveShareFragment()
                  }}
                />
              )}
            </Show>
            <For each={launches.problems()}>
              {(text) => <Banner tone="danger" role="alert" message={text} onDismiss={() => launches.dismissProblem(text)} />}
            </For>
            <Show when={imports.status()}>
              {(text) => (
                <Banner
                  message={text()}
                  {...(imports.busy() ? {} : { onDismiss: imports.dismissStatus })}
                  {...(imports.cancellable() ? { actionLabel: 'Cancel import', onAction: imports.cancel } : {})}
                >
                  <Show when={imports.cancellable() && imports.progress()}>
                    <ProgressMeter label="Import progress" progress={imports.progress()} />
                  </Show>
                </Banner>
              )}
            </Show>
            <div
              class="workbench"
              data-sidebar={sidebarOpen() ? 'open' : 'closed'}
              onDragOver={(event) => {
                // Only files dropped on the page itself: the new-project dialog takes folders and zips on its own.
                if (!event.dataTransfer?.types.includes('Files') || (event.target as Element).closest('dialog')) return
                event.preventDefault()
              }}
              onDrop={(event) => {
                if (event.defaultPrevented || (event.target as Element).closest('dialog')) return
                const file = droppedJsonFile(event.dataTransfer)
                if (!file) return
                event.preventDefault()
                void imports.importFile(file)
              }}
            >
              <header class="narrow-bar">
                <button
                  type="button"
                  class="button button-quiet"
                  aria-expanded={sidebarOpen()}
                  aria-controls="sidebar"
                  onClick={() => setSidebarOpen(!sidebarOpen())}
                >
                  <SidebarIcon />
                  Show sessions
                </button>
                <span class="narrow-bar-brand">tabcode</span>
                <WorkspaceToggle state={workspace} />
              </header>
              <Sidebar
                id="sidebar"
                onOpen={openSession}
                onCreate={() => void createSession()}
                onHide={() => setSidebarOpen(false)}
                onShowShortcuts={() => setHelpOpen(true)}
                onShowSettings={() => showSettings()}
                onShowUsage={() => setUsageOpen(true)}
                status={<SyncIndicator status={sync.status()} onShowSettings={() => showSettings(true)} />}
                header={
                  <>
                    <ProjectPicker
                      api={props.connection.api}
                      current={props.project}
                      trust={trust}
                      listen={props.connection.listen}
                      onSwitch={(project, note) => props.onSwitchProject?.(project, undefined, note)}
                      offeredZip={launches.offeredZip()}
                      onOfferClosed={launches.closeOffer}
                    />
                    <div class="workbench-import">
                      <ImportButton busy={imports.busy()} onFile={(file) => void imports.importFile(file)} />
                    </div>
                  </>
                }
              />
              <Show when={sidebarOpen()}>
                <div class="scrim" aria-hidden="true" onClick={() => setSidebarOpen(false)} />
              </Show>
              <main class="workbench-main">
                <Show
                  when={store.current.id()}
                  keyed
                  fallback={
                    <EmptyState
                      onCreate={() => void createSession()}
                      needsModel={!providers.loading() && !providers.error() && providers.providers().length === 0}
                      onShowSettings={() => setSettingsOpen(true)}
                    />
                  }
                >
                  {(sessionID) => (
                    <SessionViewWhenLoaded
                      sessionID={sessionID}
                      promptID={PROMPT_ID}
                      onShowSettings={() => setSettingsOpen(true)}
                      onNewSession={() => void createSession()}
                      onOpen={(target) => void openTarget(target)}
                    />
                  )}
                </Show>
              </main>
              <WorkspaceDock
                connection={{ api: props.connection.api, listen: props.connection.listen }}
                projectID={props.project.id}
                state={workspace}
                info={webcontainer.info}
                previews={webcontainer.previews}
                webContainer={webcontainer}
              />
            </div>
            <Show when={imports.asking()}>
              {(request) => (
                <OpenShareDialog
                  failure={request().failure}
                  busy={imports.busy()}
                  onSubmit={(passphrase) => void imports.submitPassphrase(passphrase)}
                  onCancel={() => {
                    imports.cancelPassphrase()
                    leaveShareFragment()
                  }}
                />
              )}
            </Show>
            <Show when={helpOpen()}>
              <ShortcutsDialog onClose={() => setHelpOpen(false)} />
            </Show>
            <Show when={settingsOpen()}>
              <Suspense>
                <SettingsDialog
                  store={providers}
                  api={props.connection.api}
                  projectID={props.project.id}
                  trust={trust}
                  listen={props.connection.listen}
                  sync={{ api: props.connection.api, status: sync.status, onStatus: sync.set, focus: settingsAtSync() }}
                  onClose={() => setSettingsOpen(false)}
                  backup={{
                    exportBackup: (input, onProgress) => props.connection.api.exportBackup(input, callback(onProgress)),
                    cancelOperation: (operationID) => void props.connection.api.cancelOperation(operationID).catch(() => undefined),
                    onImport: (file) => {
                      // The outcome (a session to open, a count of restored sessions) is shown on the workbench.
                      setSettingsOpen(false)
                      void imports.importFile(file)
                    },
                  }}
                />
              </Suspense>
            </Show>
            <Show when={usageOpen()}>
              <Suspense>
                <UsageDialog api={props.connection.api} onClose={() => setUsageOpen(false)} />
              </Suspense>
            </Show>
            <ToastList toasts={toasts} />
            <GitTokenDialog asks={gitTokens} />
          </div>
        </ProjectTrustContext.Provider>
      </ProviderStoreContext.Provider>
    </SessionStoreContext.Provider>
  )
}

function focusPrompt(asked: Element | null = document.activeElement): void {
  // Wait a frame: after creating or opening a session the prompt is rendered by the next paint (once its chunk is in).
  // If the answer or the chunk comes late and the user has moved on (they pressed Rename, or are typing in search),
  // the prompt must not take the focus from under them: only focus it while focus is still where it was asked from.
  void preloadSessionView().then(() =>
    requestAnimationFrame(() => {
      const now = document.activeElement
      if (now === asked || now === document.body || now === null) document.getElementById(PROMPT_ID)?.focus()
    }),
  )
}
