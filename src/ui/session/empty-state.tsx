import { Show, type JSX } from 'solid-js'
import { PlusIcon } from '../kit/icons/icons'
import { keysFor } from '../kit/keyboard/shortcuts'

/**
 * Nothing open yet. Without a model configured, that comes first: the app can browse and edit offline, but a
 * prompt needs a model, and a new user should learn it here rather than from the first send's error.
 */
export function EmptyState(props: { onCreate: () => void; needsModel?: boolean; onShowSettings?: () => void }): JSX.Element {
  return (
    <div class="empty-state">
      <h1 class="empty-state-heading">No session open</h1>
      <Show when={props.needsModel}>
        <section class="empty-state-setup" aria-labelledby="empty-state-setup-heading">
          <h2 id="empty-state-setup-heading">First, a model</h2>
          <p>
            tabcode talks to a model you bring: a cloud API key (OpenAI, Anthropic, Gemini or any OpenAI-compatible
            service) or a model server on your machine (Ollama, LM Studio, llama.cpp). The key stays in this browser.
          </p>
          <Show when={props.onShowSettings}>
            <button type="button" class="button button-primary" onClick={() => props.onShowSettings?.()}>
              Set up a model
            </button>
          </Show>
        </section>
      </Show>
      <p class="quiet">Pick a session on the left, or start a new one.</p>
      <button
        type="button"
        class="button"
        classList={{ 'button-primary': !props.needsModel }}
        aria-keyshortcuts={keysFor('new-session')}
        onClick={() => props.onCreate()}
      >
        <PlusIcon />
        New session
      </button>
      <p class="faint empty-state-hint">
        <kbd>Alt</kbd> + <kbd>N</kbd> new session · <kbd>?</kbd> all shortcuts
      </p>
    </div>
  )
}
