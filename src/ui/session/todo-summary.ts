import type { Todo } from '../../core/schema'

/** "2 of 5 done · now: Write the parser": progress and the item in hand, for the collapsed todo panel. */
export function todoSummary(todos: readonly Todo[]): string {
  const done = todos.filter((todo) => todo.status === 'completed').length
  const current = todos.find((todo) => todo.status === 'in_progress')
  return `${done} of ${todos.length} done${current ? ` · now: ${current.content}` : ''}`
}
