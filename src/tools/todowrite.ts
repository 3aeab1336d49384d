import { z } from 'zod'
import { TodoSchema } from '../core/schema'
import { defineTool } from './tool'

export const todoWriteTool = defineTool({
  id: 'todowrite',
  description: [
    'Create and maintain the task list for this session. Use it for work with three or more steps, when the user',
    'gives several tasks, or after receiving new instructions. Mark one task in_progress before you start it and',
    'completed as soon as it is done; cancel tasks that are no longer needed. Send the whole list every time:',
    'it replaces the previous one.',
  ].join(' '),
  parameters: z.object({
    todos: z.array(TodoSchema.describe('One task: a short imperative content, its status and priority')).describe('The complete, updated list'),
  }),
  async execute(input, context) {
    const todos = await context.todos.write(context.sessionID, input.todos)
    const open = todos.filter((todo) => todo.status !== 'completed' && todo.status !== 'cancelled').length
    return {
      title: `${open} todo${open === 1 ? '' : 's'}`,
      output: JSON.stringify(todos, null, 2),
      metadata: { todos },
    }
  },
})
