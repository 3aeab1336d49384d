import { describe, expect, it } from 'vitest'
import type { Todo } from '../../core/schema'
import { todoSummary } from './todo-summary'

const todo = (content: string, status: Todo['status']): Todo => ({ id: content, content, status, priority: 'medium' })

describe('todoSummary', () => {
  it('counts completed items and names the one in progress', () => {
    expect(todoSummary([todo('Read', 'completed'), todo('Write', 'in_progress'), todo('Test', 'pending')])).toBe(
      '1 of 3 done · now: Write',
    )
    expect(todoSummary([todo('Read', 'completed'), todo('Skip', 'cancelled')])).toBe('1 of 2 done')
  })
})
