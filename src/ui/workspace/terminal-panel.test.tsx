// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { createStore, produce } from 'solid-js/store'
import type { ToolPart } from '../../core/schema'
import { TERMINAL_TAIL_LINES, TerminalPanel } from './terminal-panel'
import { mount } from './testing/workspace-harness'
import type { TerminalApi } from './terminal/shell-session'

// The real terminal loads xterm; these tests are about the tabs around it.
const live = new Set<string>()
vi.mock('./terminal/shell-terminal', async () => {
  const { onCleanup } = await import('solid-js')
  return {
    ShellTerminal: (props: { name: string; projectID: string }) => {
      const key = `${props.projectID}:${props.name}`
      live.add(key)
      onCleanup(() => live.delete(key))
      return <p>shell {props.name}</p>
    },
  }
})

const call = (id: string, command: string): ToolPart => ({
  id,
  sessionID: 'ses_1',
  messageID: 'msg_1',
  type: 'tool',
  callID: id,
  tool: 'bash',
  state: { status: 'running', input: { command }, metadata: { output: '' }, time: { start: 1 } },
})

function setup(initial: ToolPart[]) {
  const [calls, setCalls] = createStore<ToolPart[]>(initial)
  const container = mount(() => <TerminalPanel calls={calls} />)
  const entries = () =>
    [...container.querySelectorAll('.terminal-call')].map((entry) => ({
      command: entry.querySelector('.terminal-command')!.textContent,
      output: entry.querySelector('.terminal-output')?.textContent ?? '',
      end: entry.querySelector('.terminal-end')!.textContent,
    }))
  return { container, entries, setCalls }
}

describe('the terminal panel', () => {
  it('is a region named Terminal, with a note while nothing has run', () => {
    const { container } = setup([])
    const region = container.querySelector('section')!
    expect(region.getAttribute('aria-label')).toBe('Terminal')
    expect(container.textContent).toContain('No commands have run in this session yet.')
  })

  it('shows each command, its output as it streams, and how it ended', () => {
    const { entries, setCalls } = setup([call('prt_1', 'npm install'), call('prt_2', 'npm test')])
    expect(entries()).toEqual([
      { command: '$ npm install', output: '', end: 'running…' },
      { command: '$ npm test', output: '', end: 'running…' },
    ])
    setCalls(0, 'state', produce((state) => void ((state as { metadata: Record<string, unknown> }).metadata.output = 'added 3 packages\n')))
    expect(entries()[0]!.output).toBe('added 3 packages\n')
    setCalls(0, 'state', {
      status: 'completed',
      input: { command: 'npm install' },
      output: 'added 3 packages\n',
      title: 'npm install',
      metadata: { output: 'added 3 packages\n', exit: 0 },
      time: { start: 1, end: 2 },
    })
    setCalls(1, 'state', {
      status: 'completed',
      input: { command: 'npm test' },
      output: '1 failing\n',
      title: 'npm test',
      metadata: { output: '1 failing\n', exit: 1 },
      time: { start: 2, end: 3 },
    })
    expect(entries()).toEqual([
      { command: '$ npm install', output: 'added 3 packages\n', end: 'exit 0' },
      { command: '$ npm test', output: '1 failing\n', end: 'exit 1' },
    ])
  })

  it('shows the tail of long output and the rest on request', () => {
    const output = Array.from({ length: TERMINAL_TAIL_LINES + 10 }, (_, index) => `row ${index + 1}`).join('\n')
    const part = call('prt_1', 'yes')
    const { container, entries } = setup([{ ...part, state: { status: 'running', input: { command: 'yes' }, metadata: { output }, time: { start: 1 } } }])
    expect(entries()[0]!.output.startsWith('row 11\n')).toBe(true)
    const more = container.querySelector<HTMLButtonElement>('.terminal-more')!
    expect(more.textContent).toBe('Show 10 earlier lines')
    more.click()
    expect(entries()[0]!.output).toBe(output)
  })
})

describe('the terminal tabs', () => {
  const api = {} as TerminalApi
  function tabs() {
    const [projectID, setProjectID] = createSignal('prj_1')
    const container = mount(() => <TerminalPanel calls={[]} shell={{ api, projectID: projectID() }} />)
    const names = () => [...container.querySelectorAll('[role="tab"]')].map((tab) => `${tab.textContent}${tab.getAttribute('aria-selected') === 'true' ? '*' : ''}`)
    const button = (name: string) => [...container.querySelectorAll('button')].find((element) => (element.getAttribute('aria-label') ?? element.textContent) === name)!
    return { container, names, button, setProjectID }
  }

  it('opens terminals beside the agent\'s log, each closable by its button or Delete, focus going to a neighbour', () => {
    live.clear()
    const { container, names, button } = tabs()
    expect(names()).toEqual(['Agent*'])
    button('New terminal').click()
    button('New terminal').click()
    expect(names()).toEqual(['Agent', 'Terminal 1', 'Terminal 2*'])
    expect([...live]).toEqual(['prj_1:Terminal 1', 'prj_1:Terminal 2'])
    button('Close Terminal 2').click()
    expect(names()).toEqual(['Agent', 'Terminal 1*'])
    expect(document.activeElement?.textContent).toBe('Terminal 1')
    expect([...live]).toEqual(['prj_1:Terminal 1'])
    const tab = [...container.querySelectorAll<HTMLElement>('[role="tab"]')][1]!
    tab.dispatchEvent(new KeyboardEvent('keydown', { key: 'Delete', bubbles: true }))
    expect(names()).toEqual(['Agent*'])
    expect(live.size).toBe(0)
  })

  it('closes the terminals when another project opens, since they run in their project', () => {
    live.clear()
    const { names, button, setProjectID } = tabs()
    button('New terminal').click()
    setProjectID('prj_2')
    expect(names()).toEqual(['Agent*'])
    expect([...live]).toEqual([])
  })

  it('has no New terminal button without a worker to run them', () => {
    const container = mount(() => <TerminalPanel calls={[]} />)
    expect(container.textContent).not.toContain('New terminal')
  })
})
