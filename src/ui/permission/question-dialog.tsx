import { createSignal, For, Index, onMount, Show, type JSX } from 'solid-js'
import type { PermissionAsk } from '../../core/schema'
import { askedQuestions, type Question, type QuestionAnswers } from '../../core/question'
import { createAskReply } from './create-ask-reply'
import { ProblemNote } from '../kit/form/problem-note'
import './question-dialog.css'

/** What one question's controls hold: the options picked and the text typed. */
interface Draft {
  picked: string[]
  typed: string
}

/** The answers a draft gives: typed text replaces the pick of a single-choice question and joins a multiple one. */
export function draftAnswers(questions: readonly Question[], drafts: readonly Draft[]): QuestionAnswers {
  return questions.map((question, index) => {
    const draft = drafts[index] ?? { picked: [], typed: '' }
    const typed = draft.typed.trim()
    if (!question.multiple) return typed ? [typed] : draft.picked.slice(0, 1)
    return typed ? [...draft.picked, typed] : [...draft.picked]
  })
}

/**
 * The agent's questions, all on one page, as a non-modal dialog above the prompt: the page stays usable, so the
 * prompt's Stop (and its Esc shortcut) still reach the turn while it waits. Options are radio buttons or, for a
 * `multiple` question, checkboxes; a typed answer is always possible. Enter submits, Esc dismisses (which stops
 * the turn, as rejecting a permission does).
 */
export function QuestionDialog(props: { ask: PermissionAsk }): JSX.Element {
  const questions = () => askedQuestions(props.ask) ?? []
  const [drafts, setDrafts] = createSignal<Draft[]>(questions().map(() => ({ picked: [], typed: '' })))
  const { busy, problem, setProblem, send } = createAskReply(props.ask)
  const titleID = `question-title-${props.ask.id}`
  let form!: HTMLFormElement

  onMount(() => form.querySelector<HTMLElement>('input')?.focus())

  const update = (index: number, change: (draft: Draft) => Draft) =>
    setDrafts((all) => all.map((draft, at) => (at === index ? change(draft) : draft)))

  const submit = () => {
    const answers = draftAnswers(questions(), drafts())
    const missing = answers.findIndex((answer) => answer.length === 0)
    if (missing >= 0) {
      setProblem(`Pick an option or type an answer for "${questions()[missing]!.question}".`)
      return
    }
    void send({ type: 'answer', answers })
  }
  const dismiss = () => void send({ type: 'reject' })

  return (
    <section
      class="question-dialog"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleID}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          event.stopPropagation()
          if (!busy()) dismiss()
        }
      }}
    >
      <h2 id={titleID} class="question-title">
        The agent asks
      </h2>
      <form
        ref={form}
        onSubmit={(event) => {
          event.preventDefault()
          if (!busy()) submit()
        }}
        onKeyDown={(event) => {
          // Enter on a radio or checkbox submits too (browsers only do it from text fields).
          if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type !== 'text') {
            event.preventDefault()
            if (!busy()) submit()
          }
        }}
      >
        <Index each={questions()}>
          {(question, index) => {
            const name = `question-${props.ask.id}-${index}`
            return (
              <fieldset class="question">
                <legend>
                  <Show when={question().header}>
                    <span class="question-header">{question().header}</span>{' '}
                  </Show>
                  {question().question}
                </legend>
                <For each={question().options}>
                  {(option, optionIndex) => {
                    const id = `${name}-${optionIndex()}`
                    return (
                      <div class="question-option">
                        <input
                          id={id}
                          type={question().multiple ? 'checkbox' : 'radio'}
                          name={name}
                          value={option.label}
                          aria-describedby={option.description ? `${id}-description` : undefined}
                          checked={drafts()[index]?.picked.includes(option.label) ?? false}
                          onChange={(event) => {
                            const checked = event.currentTarget.checked
                            update(index, (draft) => ({
                              ...draft,
                              picked: question().multiple
                                ? checked
                                  ? [...draft.picked, option.label]
                                  : draft.picked.filter((label) => label !== option.label)
                                : [option.label],
                            }))
                          }}
                        />
                        <label for={id}>{option.label}</label>
                        <Show when={option.description}>
                          <span id={`${id}-description`} class="quiet question-description">
                            {option.description}
                          </span>
                        </Show>
                      </div>
                    )
                  }}
                </For>
                <label class="question-typed">
                  <span>Type your own answer</span>
                  <input
                    type="text"
                    value={drafts()[index]?.typed ?? ''}
                    onInput={(event) => {
                      const typed = event.currentTarget.value
                      update(index, (draft) => ({ ...draft, typed }))
                    }}
                  />
                </label>
              </fieldset>
            )
          }}
        </Index>
        <ProblemNote text={problem()} />
        <div class="question-actions">
          <button type="submit" class="button button-primary" disabled={busy()}>
            Submit
          </button>
          <button type="button" class="button" disabled={busy()} onClick={dismiss}>
            Dismiss
          </button>
        </div>
      </form>
    </section>
  )
}
