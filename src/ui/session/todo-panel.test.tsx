// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { render } from 'solid-js/web'
import { createStore } from 'solid-js/store'
import type { Todo } from '../../core/schema'
import type { SessionStore } from '../store/create-session-store'
import { SessionStoreContext } from '../store/session-store-context'
import { TodoPanel } from './todo-panel'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function mount(todos: Todo[]) {
  const [state, setState] = createStore({ todos: { ses_1: todos } as Record<string, Todo[]> })
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(
    () => (
      <SessionStoreContext.Provider value={{ state } as unknown as SessionStore}>
        <TodoPanel sessionID="ses_1" />
      </SessionStoreContext.Provider>
    ),
    container,
  )
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  const toggle = () => container.querySelector<HTMLButtonElement>('.todo-toggle')!
  return { container, toggle, write: (next: Todo[]) => setState('todos', 'ses_1', next) }
}

const todo = (content: string, status: Todo['status']): Todo => ({ content, status, priority: 'medium' }) as Todo

describe('the todo panel', () => {
  it('is open while work is left and folds to its summary once everything is done', () => {
    const { container, toggle, write } = mount([todo('parse', 'completed'), todo('test', 'in_progress')])
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    expect(container.querySelectorAll('.todo-item')).toHaveLength(2)
    write([todo('parse', 'completed'), todo('test', 'completed')])
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(container.querySelectorAll('.todo-item')).toHaveLength(0)
  })

  it('keeps the choice the user made with its toggle', () => {
    const { toggle, write } = mount([todo('parse', 'completed')])
    toggle().click()
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    write([todo('parse', 'completed'), todo('ship', 'completed')])
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
  })
})
