import { createMemo, createSignal, Show, useContext, type JSX } from 'solid-js'
import type { AssistantMessage } from '../../core/schema'
import { ProviderStoreContext } from '../settings/create-provider-store'
import { useSessionStore } from '../store/session-store-context'
import { contextUse } from './context-use'

/**
 * How full the model's context window was at the last reply, as a meter in the header, with what compaction will
 * do in its description. Nothing for a model whose window is not known (no limit configured).
 */
export function ContextMeter(props: { sessionID: string }): JSX.Element {
  const store = useSessionStore()
  const [explained, setExplained] = createSignal(false)
  const providers = useContext(ProviderStoreContext)
  const last = createMemo(() => {
    const messages = store.state.messages[props.sessionID] ?? []
    for (let index = messages.length - 1; index >= 0; index--) {
      const message = messages[index]!
      if (message.role === 'assistant' && !message.summary && message.tokens && (message.tokens.input > 0 || message.tokens.cache.read > 0)) {
        return message as AssistantMessage
      }
    }
    return undefined
  })
  const use = createMemo(() => {
    const message = last()
    if (!message || !providers) return undefined
    const provider = providers.providers().find((candidate) => candidate.id === message.providerID)
    const model = provider?.models.find((candidate) => candidate.id === message.modelID)
    return contextUse(message.tokens, model?.limit, providers.settings().compactionAuto)
  })
  return (
    <Show when={use()}>
      {(shown) => (
        <span class="context-meter" data-level={shown().used >= shown().threshold ? 'full' : shown().fraction >= 0.7 ? 'high' : undefined}>
          <span id={`context-label-${props.sessionID}`}>Context</span>
          <meter
            min={0}
            max={shown().limit}
            value={shown().used}
            low={shown().threshold * 0.7}
            high={shown().threshold}
            optimum={0}
            aria-labelledby={`context-label-${props.sessionID}`}
            aria-describedby={explained() ? `context-note-${props.sessionID}` : undefined}
            aria-valuetext={`${shown().text} tokens`}
          />
          <span>{shown().text}</span>
          <button
            type="button"
            class="button-link context-toggle"
            aria-expanded={explained()}
            aria-controls={`context-note-${props.sessionID}`}
            title={shown().note}
            onClick={() => setExplained(!explained())}
          >
            What happens when it fills?
          </button>
          <Show when={explained()}>
            <span id={`context-note-${props.sessionID}`} class="context-note">
              {shown().note}
            </span>
          </Show>
        </span>
      )}
    </Show>
  )
}
