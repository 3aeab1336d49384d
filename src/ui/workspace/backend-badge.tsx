import { createUniqueId, Show, type JSX } from 'solid-js'
import type { WorkspaceInfo } from '../../worker/protocol'

const LABELS: Record<WorkspaceInfo['backend'], string> = {
  local: 'Offline workspace',
  webcontainer: 'WebContainer',
}

/**
 * Which backend runs the project's tools. The reason for it (why WebContainer is not in use) is the badge's
 * accessible description and shows as a tooltip on hover and on keyboard focus.
 */
export function BackendBadge(props: { info: WorkspaceInfo }): JSX.Element {
  const id = createUniqueId()
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
    </span>
  )
}
