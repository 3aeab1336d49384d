import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRoot } from 'solid-js'
import { createToasts } from './create-toasts'

afterEach(() => {
  vi.useRealTimers()
})

const texts = (toasts: ReturnType<typeof createToasts>) => toasts.list().map((toast) => toast.text)

describe('toasts', () => {
  it('go by themselves, newest last, and the same news twice is one toast', () => {
    vi.useFakeTimers()
    createRoot((dispose) => {
      const toasts = createToasts({ timeoutMs: 1_000 })
      toasts.show('Branched into “A”')
      toasts.show('Opened a shared session')
      vi.advanceTimersByTime(600)
      toasts.show('Branched into “A”')
      expect(texts(toasts)).toEqual(['Branched into “A”', 'Opened a shared session'])
      vi.advanceTimersByTime(500)
      // The repeated one started its time again; the other is gone.
      expect(texts(toasts)).toEqual(['Branched into “A”'])
      vi.advanceTimersByTime(600)
      expect(texts(toasts)).toEqual([])
      dispose()
    })
  })

  it('stay while held (pointed at or focused) and can be dismissed', () => {
    vi.useFakeTimers()
    createRoot((dispose) => {
      const toasts = createToasts({ timeoutMs: 1_000 })
      toasts.show('Left out 3 files')
      toasts.show('Branched')
      const [first, second] = toasts.list()
      toasts.hold(first!.id, true)
      vi.advanceTimersByTime(5_000)
      expect(texts(toasts)).toEqual(['Left out 3 files'])
      toasts.hold(first!.id, false)
      vi.advanceTimersByTime(999)
      expect(texts(toasts)).toEqual(['Left out 3 files'])
      toasts.dismiss(first!.id)
      expect(texts(toasts)).toEqual([])
      expect(second).toBeDefined()
      dispose()
    })
  })
})
