import { createSignal, onCleanup, Show, type JSX } from 'solid-js'
import type { AssistantMessage, Message, Part, ToolPart } from '../../core/schema'
import { toolSubject } from '../kit/format/tool-summary'
import { copyText } from '../kit/markdown/copy-button'
import { MenuButton, type MenuItem } from '../kit/menu/menu-button'
import { useSessionStore } from '../store/session-store-context'
import type { HistoryActions } from './create-history-actions'
import { useHistoryActions } from './history-context'
import { lastReply, messageMarkdown, wasStopped } from './turn-actions'
import { revertTakesTurn } from './revert-cut'
import './history.css'

/**
 * The menu says how far a revert goes. From a prompt: that prompt and everything after it. From a reply: the whole
 * turn, its prompt included (a reply without its prompt would just be asked again, opencode's rule). From a tool
 * call: that call and what followed it, the reply's earlier text staying.
 */
const REVERT_LABELS = {
  prompt: ['Revert conversation', 'Revert conversation and files'],
  turn: ['Revert this turn, its prompt included', 'Revert this turn and its files'],
  call: ['Revert from this call on', 'Revert from this call on, files too'],
} as const

function revertItems(history: HistoryActions, point: { messageID: string; partID?: string }, reach: keyof typeof REVERT_LABELS): MenuItem[] {
  const reason = history.lockedReason()
  const [conversation, files] = REVERT_LABELS[reach]
  return [
    { label: conversation, disabledReason: reason, onSelect: () => history.requestRevert({ ...point, files: false }) },
    { label: files, disabledReason: reason, onSelect: () => history.requestRevert({ ...point, files: true }) },
  ]
}

/** Tool calls of a reply offered as revert points in its menu; the rest are in their cards' menus. */
const STEP_ITEMS = 4

/**
 * A reply's tool calls as revert points in its own menu ("Revert from “npm test” on"), so the per-step revert is
 * found where the whole-turn one is, not only in each card's menu. The reply's text before the call stays.
 */
function stepRevertItems(history: HistoryActions, parts: readonly Part[]): MenuItem[] {
  const reason = history.lockedReason()
  return parts
    .filter((part): part is ToolPart => part.type === 'tool')
    .slice(0, STEP_ITEMS)
    .map((part) => {
      const subject = toolSubject(part.tool, part.state) ?? part.tool
      const named = subject.length > 40 ? `${subject.slice(0, 39)}…` : subject
      return {
        label: revertTakesTurn(parts, part.id) ? `Revert this turn (it starts with “${named}”)` : `Revert from “${named}” on`,
        disabledReason: reason,
        onSelect: () => history.requestRevert({ messageID: part.messageID, partID: part.id, files: false }),
      }
    })
}

/** How long "Copied" stays in the live region. */
const SAID_MS = 1_500

/** Copy, Edit and resend or Regenerate, branch from a message, or revert the conversation (and, if asked, the files) back to it. */
export function MessageActions(props: { message: Message }): JSX.Element {
  const history = useHistoryActions()
  const store = useSessionStore()
  const [said, setSaid] = createSignal('')
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => clearTimeout(timer))
  const copy = async () => {
    const copied = await copyText(messageMarkdown(props.message, store.partsOf(props.message.id)))
    setSaid(copied ? 'Message copied' : "Couldn't copy the message")
    clearTimeout(timer)
    timer = setTimeout(() => setSaid(''), SAID_MS)
  }
  const turnItems = (): MenuItem[] => {
    const message = props.message
    const reason = history.lockedReason()
    if (message.role === 'user') return [{ label: 'Edit and resend', disabledReason: reason, onSelect: () => history.startEdit(message.id) }]
    if (lastReply(history.visibleMessages())?.id !== message.id) return []
    return [{ label: 'Regenerate', disabledReason: reason, onSelect: () => void history.regenerate(message) }]
  }
  return (
    <>
      <MenuButton
        label="Message actions"
        class="message-actions"
        items={() => [
          { label: 'Copy', onSelect: () => void copy() },
          ...turnItems(),
          { label: 'Branch from here', onSelect: () => void history.branch(props.message) },
          ...revertItems(history, { messageID: props.message.id }, props.message.role === 'user' ? 'prompt' : 'turn'),
          ...(props.message.role === 'assistant' ? stepRevertItems(history, store.partsOf(props.message.id)) : []),
        ]}
      />
      <span class="visually-hidden" role="status">
        {said()}
      </span>
    </>
  )
}

/** After a Stop, on the last reply: asks the model to go on from where it was cut off. */
export function ContinueAction(props: { message: AssistantMessage }): JSX.Element {
  const history = useHistoryActions()
  const shown = () => wasStopped(props.message) && lastReply(history.visibleMessages())?.id === props.message.id
  return (
    <Show when={shown()}>
      <button
        type="button"
        class="button button-small message-continue"
        disabled={history.lockedReason() !== undefined}
        title={history.lockedReason()}
        onClick={() => void history.continueReply(props.message)}
      >
        Continue
      </button>
    </Show>
  )
}

/** Revert to a tool call: the call and everything after it go, what came before it in the reply stays. */
export function PartActions(props: { part: ToolPart }): JSX.Element {
  const history = useHistoryActions()
  const store = useSessionStore()
  // The first thing a reply did: reverting there takes the whole turn, and the menu says so.
  const reach = () => (revertTakesTurn(store.partsOf(props.part.messageID), props.part.id) ? 'turn' : 'call')
  return (
    <MenuButton
      label="Part actions"
      class="part-actions"
      items={() => revertItems(history, { messageID: props.part.messageID, partID: props.part.id }, reach())}
    />
  )
}
