import { Match, Switch, type JSX } from 'solid-js'
import type { SessionStatus } from '../../session/event'

/** Live status from the runner (busy, retrying); idle says nothing. */
export function SessionStatusText(props: { status: SessionStatus | undefined }): JSX.Element {
  const retry = () => (props.status?.type === 'retry' ? props.status : undefined)
  return (
    <Switch>
      <Match when={props.status?.type === 'busy'}>
        <span class="session-status" role="status">
          working…
        </span>
      </Match>
      <Match when={retry()}>
        {(status) => (
          <span class="session-status session-status-retry" role="status">
            retrying (attempt {status().attempt}): {status().message}
          </span>
        )}
      </Match>
    </Switch>
  )
}
