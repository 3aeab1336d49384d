// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import type { UsageQuery, UsageReport } from '../../core/protocol'
import { summarizeUsage, type UsageRecord } from '../../core/usage-report'
import { mount } from '../testing/mount'
import UsageDialog from './usage-dialog'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const record = (overrides: Partial<UsageRecord>): UsageRecord => ({
  sessionID: 'ses_a',
  projectID: 'prj_a',
  time: Date.UTC(2026, 11, 2, 12),
  providerID: 'prv_a',
  modelID: 'model-a',
  agent: 'build',
  cost: 0.5,
  tokens: { input: 1200, output: 30, reasoning: 4, cache: { read: 5000, write: 60 } },
  ...overrides,
})

function fakeApi() {
  const report: UsageReport = summarizeUsage(
    [record({}), record({ modelID: 'model-b', agent: 'plan', cost: 0.25, time: Date.UTC(2026, 11, 1, 12) }), record({ modelID: 'local', cost: 0 })],
    { timeZone: 'UTC' },
  )
  for (const row of report.models) row.label = `Mock / ${row.key.split('/')[1]}`
  const usageReport = vi.fn(async (_query: UsageQuery) => report)
  const listProjects = vi.fn(async () => [{ id: 'prj_a', name: 'Web app' }, { id: 'prj_b', name: 'Notes' }] as never)
  return { usageReport, listProjects }
}

const table = (container: HTMLElement) => container.ownerDocument.querySelector<HTMLTableElement>('table.usage-table')!
// happy-dom's tables lack rows and cells: read them by selector.
const cells = (row: Element) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)
const rows = (table: HTMLTableElement, section: 'thead' | 'tbody' | 'tfoot') => [...table.querySelectorAll(`${section} tr`)].map(cells)
const select = (label: string) => {
  const element = [...document.querySelectorAll('label')].find((candidate) => candidate.textContent === label)!
  return document.getElementById(element.htmlFor) as HTMLSelectElement
}
const choose = (element: HTMLSelectElement, value: string) => {
  element.value = value
  element.dispatchEvent(new Event('change'))
}

describe('UsageDialog', () => {
  it('shows a table with headers and a total row of every token kind and the cost, with unpriced replies named', async () => {
    const api = fakeApi()
    const container = mount(() => <UsageDialog api={api} onClose={() => {}} />)
    await settle()
    const usage = table(container)
    expect(usage.querySelector('caption')?.textContent).toBe('Tokens and cost by day')
    expect(rows(usage, 'thead')[0]).toEqual(['Day', 'Replies', 'Input', 'Output', 'Reasoning', 'Cache read', 'Cache write', 'Cost'])
    expect(rows(usage, 'tbody')).toEqual([
      ['2026-12-02', '2', '2,400', '60', '8', '10,000', '120', '$0.5000 (+1 unpriced)'],
      ['2026-12-01', '1', '1,200', '30', '4', '5,000', '60', '$0.2500'],
    ])
    expect(rows(usage, 'tfoot')[0]).toEqual(['Total', '3', '3,600', '90', '12', '15,000', '180', '$0.7500 (+1 unpriced)'])
    expect(document.querySelector('[role="status"]')?.textContent).toBe(
      '$0.7500 for 3 replies in 1 session. 1 of them had no price for their model, so the cost leaves them out.',
    )
  })

  it('asks again for the period and project chosen, and groups by model', async () => {
    const api = fakeApi()
    const container = mount(() => <UsageDialog api={api} onClose={() => {}} />)
    await settle()
    // The last 30 days by default, in the page's time zone.
    expect(api.usageReport.mock.calls[0]![0]).toMatchObject({ since: expect.any(Number), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })
    choose(select('Period'), 'all')
    choose(select('Project'), 'prj_b')
    await settle()
    expect(api.usageReport.mock.calls.at(-1)![0]).toEqual({ timeZone: expect.any(String), projectID: 'prj_b' })
    choose(select('Group by'), 'models')
    const usage = table(container)
    expect(usage.querySelector('caption')?.textContent).toBe('Tokens and cost by model')
    expect(rows(usage, 'tbody').map((row) => row[0])).toEqual(['Mock / model-a', 'Mock / model-b', 'Mock / local'])
  })
})
