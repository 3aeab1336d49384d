import { createResource, For, Match, Show, Switch, type JSX } from 'solid-js'
import type { ModelView } from '../../core/protocol'
import { Dialog } from '../kit/dialog/dialog'
import { errorMessage } from '../kit/format/error'
import { describeModelMessage, tokenEstimate } from './model-view-text'
import { DialogActions } from '../kit/dialog/dialog-actions'
import './history.css'

/**
 * Exactly what the next request of the session would send: the system prompt and every message after compaction,
 * pruning and the other history rules, as text. opencode's users could not see what a compaction left the model
 * with; here it is one click away.
 */
export function ModelViewDialog(props: { load: () => Promise<ModelView>; onClose: () => void }): JSX.Element {
  const [view] = createResource(props.load)
  const loaded = () => (view.state === 'ready' ? view() : undefined)
  return (
    <Dialog title="What the model sees" class="model-view-dialog" onClose={props.onClose}>
      <Switch>
        <Match when={view.error as unknown}>
          <p class="dialog-failure" role="alert">
            Couldn't read the next request: {errorMessage(view.error)}
          </p>
        </Match>
        <Match when={!loaded()}>
          <p class="quiet">Reading the next request…</p>
        </Match>
        <Match when={loaded()}>
          {(shown) => (
            <div class="model-view">
              <p class="model-view-facts">
                <span>{tokenEstimate(shown().estimatedTokens)}</span>
                <Show when={shown().model}>
                  {(model) => (
                    <>
                      <span aria-hidden="true"> · </span>
                      <span class="mono">{model().modelID}</span>
                    </>
                  )}
                </Show>
                <span aria-hidden="true"> · </span>
                <span>
                  {shown().summaryMessageID
                    ? 'Starts from a summary: the turns before it are not sent'
                    : 'The full history: nothing is summarised'}
                </span>
              </p>
              <section class="model-view-section" aria-label="System prompt">
                <h3 class="model-view-heading">System prompt</h3>
                <pre class="model-view-text">{shown().system}</pre>
              </section>
              <ol class="model-view-messages" aria-label="Messages sent">
                <For each={shown().messages.map(describeModelMessage)}>
                  {(message) => (
                    <li class="model-view-message">
                      <h3 class="model-view-heading">{message.role}</h3>
                      <For each={message.blocks}>
                        {(block) => (
                          <div class="model-view-block" data-kind={block.kind}>
                            <Show when={block.label}>
                              <p class="model-view-label">{block.label}</p>
                            </Show>
                            <pre class="model-view-text">{block.text}</pre>
                          </div>
                        )}
                      </For>
                    </li>
                  )}
                </For>
              </ol>
            </div>
          )}
        </Match>
      </Switch>
      <DialogActions cancelLabel="Close" focusCancel onCancel={() => props.onClose()} />
    </Dialog>
  )
}
