// @vitest-environment happy-dom
import { createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { mount } from '../../testing/mount'
import { Checkbox } from './checkbox'
import { SelectField, TextField } from './field'

describe('form fields', () => {
  it('ties the label to the control and the hint to its description, and hands each keystroke on', () => {
    const [value, setValue] = createSignal('')
    const container = mount(() => <TextField label="Name" hint="What the list shows" value={value()} onValue={setValue} autocomplete="off" />)
    const input = container.querySelector('input')!
    const label = container.querySelector('label')!
    expect(label.htmlFor).toBe(input.id)
    expect(label.textContent).toBe('Name')
    expect(input.getAttribute('aria-describedby')).toBe(container.querySelector('.field-hint')!.id)
    expect(input.getAttribute('autocomplete')).toBe('off')
    input.value = 'Ollama'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    expect(value()).toBe('Ollama')
  })

  it('leaves out the hint and the description when there is no hint', () => {
    const container = mount(() => (
      <SelectField label="Mode" value="b" onValue={() => {}}>
        <option value="a">A</option>
        <option value="b">B</option>
      </SelectField>
    ))
    const select = container.querySelector('select')!
    expect(select.hasAttribute('aria-describedby')).toBe(false)
    expect(container.querySelector('.field-hint')).toBeNull()
    expect(container.querySelector('label')!.htmlFor).toBe(select.id)
  })

  it('a checkbox inside its label says when it changes', () => {
    const seen: boolean[] = []
    const container = mount(() => <Checkbox label="Enabled" checked={false} onChange={(checked) => seen.push(checked)} />)
    const box = container.querySelector<HTMLInputElement>('input[type="checkbox"]')!
    expect(box.closest('label')!.textContent).toBe('Enabled')
    box.click()
    expect(seen).toEqual([true])
  })
})
