import { createEffect, createSignal, Match, onCleanup, Switch, type JSX } from 'solid-js'
import type { SessionStatus } from '../../core/event'
import { msUntilNextTick, retryParts } from '../kit/format/session-status-text'

/**
 * Live status from the runner: nothing when idle, "Working…" while busy, and a retry with a countdown computed from
 * the attempt's time (so every tab counts on its own). The region is always there, so changes are announced; the
 * ticking seconds are hidden from screen readers, which hear the attempt and the reason once.
 */
export function SessionStatusText(props: { status: SessionStatus | undefined }): JSX.Element {
  const retry = () => (props.status?.type === 'retry' ? props.status : undefined)
  const [now, setNow] = createSignal(Date.now())
  createEffect(() => {
    const status = retry()
    if (!status) return
    let timer: ReturnType<typeof setTimeout>
    const tick = () => {
      const current = Date.now()
      setNow(current)
      if (current < status.next) timer = setTimeout(tick, msUntilNextTick(status.next, current))
    }
    tick()
    onCleanup(() => clearTimeout(timer))
  })
  return (
    <span
      class="session-status"
      classList={{ 'session-status-retry': !!retry(), 'session-status-busy': props.status?.type === 'busy' }}
      role="status"
      aria-label="Session status"
    >
      <Switch>
        <Match when={props.status?.type === 'busy'}>
          <span class="status-dot" aria-hidden="true" />
          Working…
        </Match>
        <Match when={retry()}>
          {(status) => {
            const parts = () => retryParts(status(), now())
            return (
              <>
                <span class="status-dot" aria-hidden="true" />
                {/* One inline box: the status is a flex row, where bare spaces between children collapse. */}
                <span class="session-status-text">
                  {parts().lead} <span aria-hidden="true">{parts().when}</span>: {parts().reason}
                </span>
              </>
            )
          }}
        </Match>
      </Switch>
    </span>
  )
}
