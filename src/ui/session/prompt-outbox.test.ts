import { describe, expect, it } from 'vitest'
import { createPromptOutbox } from './prompt-outbox'

/** A store call that waits until the test settles it. */
function pending() {
  let settle: (stored: boolean) => void = () => {}
  const promise = new Promise<boolean>((resolve) => (settle = resolve))
  return { store: () => promise, settle }
}

describe('the prompt outbox', () => {
  it('stores prompts in the order sent, each after the one before, and says what the box holds beyond them', async () => {
    let idle = 0
    const outbox = createPromptOutbox<string>(() => idle++)
    const order: string[] = []
    const first = pending()
    const second = pending()
    const one = outbox.send({ text: 'first', files: ['a.png'] }, () => (order.push('first'), first.store()))
    const two = outbox.send({ text: 'second', files: [] }, () => (order.push('second'), second.store()))
    expect(outbox.beyond('first second third')).toBe('third')
    expect([...outbox.taken()]).toEqual(['a.png'])
    await Promise.resolve()
    expect(order).toEqual(['first'])
    first.settle(true)
    expect(await one).toBe(true)
    expect(order).toEqual(['first', 'second'])
    expect(idle).toBe(0)
    second.settle(true)
    expect(await two).toBe(true)
    expect(idle).toBe(1)
    expect(outbox.beyond('third')).toBe('third')
  })

  it('stores nothing behind a prompt that failed, and the next prompt after that goes on its own', async () => {
    const outbox = createPromptOutbox<string>(() => {})
    const first = pending()
    const stored: string[] = []
    const one = outbox.send({ text: 'first', files: [] }, first.store)
    const two = outbox.send({ text: 'second', files: [] }, async () => (stored.push('second'), true))
    first.settle(false)
    expect(await one).toBe(false)
    expect(await two).toBe(false)
    expect(stored).toEqual([])
    expect(await outbox.send({ text: 'again', files: [] }, async () => (stored.push('again'), true))).toBe(true)
    expect(stored).toEqual(['again'])
  })
})
