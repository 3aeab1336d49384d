import type { JSX } from 'solid-js'
import type { Message, ToolPart } from '../../core/schema'
import { MenuButton, type MenuItem } from '../menu/menu-button'
import type { HistoryActions } from './create-history-actions'
import { useHistoryActions } from './history-context'
import './history.css'

function revertItems(history: HistoryActions, point: { messageID: string; partID?: string }): MenuItem[] {
  const reason = history.lockedReason()
  return [
    { label: 'Revert conversation', disabledReason: reason, onSelect: () => history.requestRevert({ ...point, files: false }) },
    { label: 'Revert conversation and files', disabledReason: reason, onSelect: () => history.requestRevert({ ...point, files: true }) },
  ]
}

/** Branch from a message, or revert the conversation (and, if asked, the files) back to it. */
export function MessageActions(props: { message: Message }): JSX.Element {
  const history = useHistoryActions()
  return (
    <MenuButton
      label="Message actions"
      class="message-actions"
      items={() => [
        { label: 'Branch from here', onSelect: () => void history.branch(props.message) },
        ...revertItems(history, { messageID: props.message.id }),
      ]}
    />
  )
}

/** Revert to a tool call: the call and everything after it go, what came before it in the reply stays. */
export function PartActions(props: { part: ToolPart }): JSX.Element {
  const history = useHistoryActions()
  return (
    <MenuButton
      label="Part actions"
      class="part-actions"
      items={() => revertItems(history, { messageID: props.part.messageID, partID: props.part.id })}
    />
  )
}
