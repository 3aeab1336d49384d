import { createSignal, For, Show, type JSX } from 'solid-js'
import type { Todo } from '../../core/schema'
import { useSessionStore } from '../store/session-store-context'
import { todoSummary } from './todo-summary'

const MARKS: Record<Todo['status'], { mark: string; label: string }> = {
  pending: { mark: '○', label: 'pending' },
  in_progress: { mark: '◐', label: 'in progress' },
  completed: { mark: '●', label: 'completed' },
  cancelled: { mark: '⊘', label: 'cancelled' },
}

/**
 * The session's todo list as the model last wrote it (the todowrite tool), just above the prompt. Compact and
 * collapsible, folded once everything is done; absent while the list is empty.
 */
export function TodoPanel(props: { sessionID: string }): JSX.Element {
  const store = useSessionStore()
  const todos = () => store.state.todos[props.sessionID] ?? []
  // Open while work is left; a list that is all done folds to its summary line, so it stops covering the
  // conversation. The user's own toggle wins either way.
  const [chosen, setChosen] = createSignal<boolean>()
  const open = () => chosen() ?? todos().some((todo) => todo.status === 'pending' || todo.status === 'in_progress')
  const setOpen = (value: boolean) => setChosen(value)
  const listID = `todos-${props.sessionID}`
  return (
    <Show when={todos().length > 0}>
      <section class="todo-panel" aria-label="Todos">
        <button
          type="button"
          class="todo-toggle"
          aria-expanded={open()}
          aria-controls={listID}
          onClick={() => setOpen(!open())}
        >
          <span class="todo-chevron" aria-hidden="true">
            {open() ? '▾' : '▸'}
          </span>
          <span class="todo-title">Todos</span>
          <span class="todo-summary">{todoSummary(todos())}</span>
        </button>
        <Show when={open()}>
          <ul id={listID} class="todo-list">
            <For each={todos()}>
              {(todo) => (
                <li class="todo-item" data-status={todo.status}>
                  <span class="todo-mark" aria-hidden="true">
                    {MARKS[todo.status].mark}
                  </span>
                  <span class="todo-content">{todo.content}</span>
                  <span class="visually-hidden">({MARKS[todo.status].label})</span>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>
    </Show>
  )
}
