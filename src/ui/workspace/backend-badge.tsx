import { createUniqueId, Show, type Accessor, type JSX } from 'solid-js'
import type { WorkspaceInfo } from '../../core/protocol'

const LABELS: Record<WorkspaceInfo['backend'], string> = {
  local: 'Offline workspace',
  webcontainer: 'WebContainer',
}

/** What the badge needs to let the user start WebContainer by hand. */
export interface WebContainerControl {
  allowed: Accessor<boolean>
  starting: Accessor<boolean>
  start(): void
}

/**
 * Which backend runs the project's tools. The reason for it (why WebContainer is not in use) is the badge's
 * accessible description and shows as a tooltip on hover and on keyboard focus. While the offline workspace serves
 * and Settings allow it, a button starts WebContainer (it loads its runtime from StackBlitz, so only on request).
 */
export function BackendBadge(props: { info: WorkspaceInfo; webContainer?: WebContainerControl }): JSX.Element {
  const id = createUniqueId()
  const control = () => (props.info.backend === 'local' && props.webContainer?.allowed() ? props.webContainer : undefined)
  return (
    <span class="backend-badge" data-backend={props.info.backend}>
      <Show when={props.info.reason} fallback={<span class="badge">{LABELS[props.info.backend]}</span>}>
        {(reason) => (
          <>
            <span class="badge" tabindex="0" aria-describedby={id}>
              {LABELS[props.info.backend]}
            </span>
            <span id={id} role="tooltip" class="backend-tooltip">
              {reason()}
            </span>
          </>
        )}
      </Show>
      <Show when={control()}>
        {(webContainer) => (
          <button type="button" class="button button-quiet button-small backend-start" disabled={webContainer().starting()} onClick={() => webContainer().start()}>
            {webContainer().starting() ? 'Starting WebContainer…' : 'Start WebContainer'}
          </button>
        )}
      </Show>
    </span>
  )
}
