import { Match, Switch, type JSX } from 'solid-js'
import type { Message } from '../../core/schema'
import { AssistantMessageView } from './assistant-message'
import { UserMessageView } from './user-message'

/** `before`: a revert at a part of this message hides that part and the ones after it. */
export function MessageView(props: { message: Message; previous: Message | undefined; before?: string | undefined }): JSX.Element {
  const user = () => (props.message.role === 'user' ? props.message : undefined)
  const assistant = () => (props.message.role === 'assistant' ? props.message : undefined)
  return (
    <Switch>
      <Match when={user()}>{(message) => <UserMessageView message={message()} before={props.before} />}</Match>
      <Match when={assistant()}>
        {(message) => <AssistantMessageView message={message()} previous={props.previous} before={props.before} />}
      </Match>
    </Switch>
  )
}
