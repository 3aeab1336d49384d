import { createMemo, createSignal, For, Show, type JSX } from 'solid-js'
import type { PermissionAsk } from '../../core/schema'
import { Dialog } from '../kit/dialog/dialog'
import { useSessionStore } from '../store/session-store-context'
import { askSummary } from './ask-summary'
import { createAskReply } from './create-ask-reply'
import { QuestionDialog } from './question-dialog'
import { sessionFamily } from './session-family'
import { askedQuestions } from '../../core/question'
import { ProblemNote } from '../kit/form/problem-note'
import './ask-dialog.css'

/**
 * The oldest question a tool of this session is waiting on, as a dialog: allow once, always allow (remembered for
 * the project), reject (the turn stops), or reject with feedback the model reads before it goes on.
 */
export function AskDialog(props: { sessionID: string }): JSX.Element {
  const store = useSessionStore()
  const oldest = createMemo(() => {
    const family = sessionFamily(store.state.children, props.sessionID)
    return Object.values(store.state.asks)
      .filter((ask) => family.has(ask.sessionID))
      .sort((a, b) => (a.id < b.id ? -1 : 1))[0]
  })
  const asker = (ask: PermissionAsk) => (ask.sessionID === props.sessionID ? undefined : (store.state.sessions[ask.sessionID]?.title ?? 'a subagent'))
  return (
    <Show when={oldest()} keyed>
      {(ask) => (askedQuestions(ask) ? <QuestionDialog ask={ask} /> : <AskPrompt ask={ask} asker={asker(ask)} />)}
    </Show>
  )
}

function AskPrompt(props: { ask: PermissionAsk; asker: string | undefined }): JSX.Element {
  const [feedback, setFeedback] = createSignal('')
  const { busy, problem, send: answer } = createAskReply(props.ask)
  const summary = () => askSummary(props.ask)

  return (
    <Dialog
      title={summary().title}
      description={summary().description}
      class="ask-dialog"
      // Escape is not an answer: the question stays until the user picks one (the turn waits on it).
      onClose={() => {}}
    >
      <Show when={props.asker}>{(asker) => <p class="quiet">Asked in the subagent’s session: {asker()}</p>}</Show>
      <Show when={props.ask.patterns.length > 0}>
        <ul class="ask-patterns" aria-label="Applies to">
          <For each={props.ask.patterns}>{(pattern) => <li><code>{pattern}</code></li>}</For>
        </ul>
      </Show>
      <Show when={summary().tool}>
        {(tool) => (
          <>
            <p class="ask-tool-heading">What the server says this tool does:</p>
            <blockquote class="ask-detail ask-tool-description" aria-label="Tool description">
              {tool().description || '(no description)'}
            </blockquote>
            <Show when={tool().change}>
              {(change) => (
                <section class="ask-tool-change" aria-label="Changed since you allowed it">
                  <Show when={change().description}>
                    {(description) => (
                      <>
                        <p class="ask-tool-heading">When you allowed it, it said:</p>
                        <blockquote class="ask-detail ask-tool-description" aria-label="Description when you allowed it">
                          {description().before || '(no description)'}
                        </blockquote>
                      </>
                    )}
                  </Show>
                  <Show when={change().lines.length > 0}>
                    <ul class="ask-tool-changes" aria-label="Other changes">
                      <For each={change().lines}>{(line) => <li>{line}</li>}</For>
                    </ul>
                  </Show>
                </section>
              )}
            </Show>
          </>
        )}
      </Show>
      <Show when={summary().detail}>
        {(detail) => (
          <pre class="ask-detail" aria-label={summary().detailLabel}>
            {detail()}
          </pre>
        )}
      </Show>
      <ProblemNote text={problem()} />
      <div class="ask-actions">
        <button type="button" class="button" data-autofocus={summary().cautious ? undefined : ''} disabled={busy()} onClick={() => void answer({ type: 'once' })}>
          Allow once
        </button>
        {/* Nothing to remember (a redirect to a host nobody can name): "always" would only be "once". */}
        <Show when={props.ask.always.length > 0}>
          <button type="button" class="button" disabled={busy()} onClick={() => void answer({ type: 'always' })}>
            Always allow
          </button>
        </Show>
        <button
          type="button"
          class="button button-danger"
          data-autofocus={summary().cautious ? '' : undefined}
          disabled={busy()}
          onClick={() => void answer({ type: 'reject' })}
        >
          Reject
        </button>
      </div>
      <Show when={props.ask.always.length > 0}>
        <p class="quiet ask-always-note">
          "Always allow" remembers <For each={props.ask.always}>{(pattern, index) => <>{index() > 0 ? ', ' : ''}<code>{pattern}</code></>}</For> for
          this project; you can revoke it in Settings.
        </p>
      </Show>
      <form
        class="ask-feedback"
        onSubmit={(event) => {
          event.preventDefault()
          const text = feedback().trim()
          if (text) void answer({ type: 'reject', feedback: text })
        }}
      >
        <label for={`ask-feedback-${props.ask.id}`}>Or tell the agent what to do instead</label>
        <textarea id={`ask-feedback-${props.ask.id}`} rows={2} value={feedback()} onInput={(event) => setFeedback(event.currentTarget.value)} />
        <button type="submit" class="button" disabled={busy() || feedback().trim() === ''}>
          Reject with feedback
        </button>
      </form>
    </Dialog>
  )
}
