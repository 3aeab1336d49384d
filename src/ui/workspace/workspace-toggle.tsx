import type { JSX } from 'solid-js'
import { SidebarIcon } from '../kit/icons/icons'
import { WORKSPACE_PANEL_ID, type PanelState } from './create-panel-state'

/** The narrow bar's button for the workspace drawer (wide screens use the dock's rail instead). */
export function WorkspaceToggle(props: { state: PanelState }): JSX.Element {
  return (
    <button
      type="button"
      class="button button-quiet workspace-toggle"
      data-workspace-toggle
      aria-expanded={props.state.open()}
      aria-controls={WORKSPACE_PANEL_ID}
      onClick={() => props.state.toggle()}
    >
      <SidebarIcon />
      Workspace
    </button>
  )
}
