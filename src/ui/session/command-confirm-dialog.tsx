import type { JSX } from 'solid-js'
import type { CommandSwitch } from '../../core/project-files/errors'
import { ConfirmDialog } from '../kit/dialog/confirm-dialog'
import { runsWith } from '../project/trust-text'

/**
 * Asks before a project command runs under another agent or model than the prompt box shows: in a project the user
 * has not trusted, whoever made the project wrote the command, and the picker must not say one agent while another runs.
 */
export function CommandConfirmDialog(props: {
  change: CommandSwitch
  /** What the prompt box shows: its agent and model. */
  agent: string
  modelID: string | undefined
  onConfirm: () => Promise<void>
  onClose: () => void
}): JSX.Element {
  return (
    <ConfirmDialog
      title={`Run /${props.change.name} with ${runsWith(props.change)}?`}
      description={
        <p>
          {`This project's /${props.change.name} command runs with ${runsWith(props.change)}, not as the prompt box shows ` +
            `(the ${props.agent} agent${props.modelID ? `, model ${props.modelID}` : ''}). ` +
            'You have not trusted this project, so whoever made it wrote this command.'}
        </p>
      }
      confirmLabel={props.change.agent ? `Run as ${props.change.agent}` : `Run with ${props.change.model}`}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  )
}
