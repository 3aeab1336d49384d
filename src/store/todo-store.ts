import type { StoreContext } from './context'
import { parseWith } from '../core/errors'
import { TodoListSchema, type Todo } from '../core/schema'
import { write } from './transaction'

export async function writeTodos(context: StoreContext, sessionID: string, items: Todo[]): Promise<Todo[]> {
  const row = parseWith(TodoListSchema, { sessionID, items, time: { updated: context.now() } }, 'todo list')
  const { db } = context
  await write(context, [db.todos], async (announce) => {
    await db.todos.put(row)
    announce({ type: 'todo.updated', sessionID, todos: row.items })
  })
  return row.items
}

export async function readTodos(context: StoreContext, sessionID: string): Promise<Todo[]> {
  return (await context.db.todos.get(sessionID))?.items ?? []
}
