import { createSignal, ErrorBoundary, Match, onCleanup, onMount, Show, Switch, type JSX } from 'solid-js'
import { afterFirstFrame } from '../kit/load/after-first-frame'
import { boot, type BootOutcome } from './boot/boot'
import { errorDetail } from './boot/boot-failure'
import { createBootGuard } from './boot/create-boot-guard'
import { RecoveryScreen } from './boot/recovery-screen'
import { Splash } from './boot/splash'
import { installTestHook } from './test-hook'
import { hashForSession } from '../kit/routing/session-location'
import { createNotifier, type NotifierConnection } from '../notify/create-notifier'
import type { Arrival } from './workbench/open-target'
import { preloadSessionView, Workbench } from './workbench/workbench'

type Phase = { status: 'booting' } | BootOutcome

/** Boot, then either the workbench or the recovery screen; there is no state in which the page is blank. */
export function App(): JSX.Element {
  const [phase, setPhase] = createSignal<Phase>({ status: 'booting' })
  const [slowStorage, setSlowStorage] = createSignal(false)
  // What the next project's workbench opens first (a branch that got its own project).
  let arrival: Arrival | undefined
  let projectNote: string | undefined
  const guard = createBootGuard((detail) => {
    if (phase().status === 'booting') setPhase({ status: 'failed', failure: { kind: 'crash', detail } })
  })

  onMount(async () => {
    // The session view's chunk arrives while the worker boots, in a task of its own after the splash's frame:
    // the first screen's New session (or the session in the address) needs it as soon as the sidebar is up.
    const cancelPreload = afterFirstFrame(preloadSessionView)
    onCleanup(cancelPreload)
    const outcome = await boot(undefined, { onSlowStorage: () => setSlowStorage(true) })
    guard.stop()
    if (phase().status !== 'booting') return
    if (outcome.status === 'ready') installTestHook({ api: outcome.connection.api, version: outcome.version, projectID: outcome.project.id })
    setPhase(outcome)
  })

  return (
    <ErrorBoundary fallback={(error) => <RecoveryScreen failure={{ kind: 'crash', detail: errorDetail(error) }} />}>
      <Switch>
        <Match when={phase().status === 'booting'}>
          <Splash slowStorage={slowStorage()} />
        </Match>
        <Match when={failed(phase())}>
          {(outcome) => (
            <RecoveryScreen
              failure={outcome().failure}
              {...(outcome().connection ? { onReset: () => outcome().connection!.api.resetDatabase() } : {})}
            />
          )}
        </Match>
        <Match when={ready(phase())}>
          {(outcome) => (
            // Keyed on the project: another project gets a fresh workbench (its own sessions, files and state).
            <Show when={outcome().project} keyed>
              {(project) => (
                <Workbench
                  connection={outcome().connection}
                  project={project}
                  arrival={arrival}
                  projectNote={projectNote}
                  onSwitchProject={(next, target, note) => {
                    // The open session belongs to the project being left; the fragment names the one to open next. A
                    // switch the user made is a step Back returns from; one Back or Forward made (the address already
                    // names the session) adds none.
                    const hash = target ? hashForSession(target.sessionID) : ''
                    const url = hash || location.pathname + location.search
                    if (location.hash !== hash) history.pushState(null, '', url)
                    else history.replaceState(null, '', url)
                    arrival = target
                    projectNote = note
                    installTestHook({ api: outcome().connection.api, version: outcome().version, projectID: next.id })
                    setPhase({ ...outcome(), project: next })
                  }}
                />
              )}
            </Show>
          )}
        </Match>
      </Switch>
      {/* Beside the workbench, which a project switch replaces: a turn started before the switch still tells when it ends. */}
      <Show when={ready(phase())?.connection}>{(connection) => <Notifier connection={connection()} />}</Show>
    </ErrorBoundary>
  )
}

/** Shows nothing itself: the title mark and the notifications of a hidden tab, for as long as the worker is there. */
function Notifier(props: { connection: NotifierConnection }): JSX.Element {
  createNotifier(props.connection)
  return null
}

const failed = (phase: Phase) => (phase.status === 'failed' ? phase : undefined)
const ready = (phase: Phase) => (phase.status === 'ready' ? phase : undefined)
