// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { mount } from '../../testing/mount'
import { loadLater } from './load-later'

describe('loadLater', () => {
  it('shows what could not load in its own place, and loads on Try again', async () => {
    let attempts = 0
    const View = loadLater('The Files view', async () => {
      attempts++
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module')
      return (props: { name: string }) => <p>Files of {props.name}</p>
    })
    const container = mount(() => (
      <div>
        <p>The rest of the app</p>
        <View name="demo" />
      </div>
    ))
    await vi.waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('The Files view could not load'))
    expect(container.textContent).toContain('The rest of the app')
    container.querySelector<HTMLButtonElement>('[role="alert"] button')!.click()
    await vi.waitFor(() => expect(container.textContent).toContain('Files of demo'))
    expect(container.querySelector('[role="alert"]')).toBeNull()
    expect(attempts).toBe(2)
  })
})
