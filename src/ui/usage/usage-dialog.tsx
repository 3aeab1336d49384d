import { createMemo, createSignal, For, Show, type JSX } from 'solid-js'
import type { ClientApi, UsageRow, UsageTotals } from '../../core/protocol'
import { Dialog } from '../kit/dialog/dialog'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { Field } from '../kit/form/field'
import { formatNumber } from '../kit/format/number'
import { formatCalendarDay } from '../kit/format/time'
import { formatCost } from '../kit/format/usage'
import { createUsage, type UsageGrouping } from './create-usage'
import { USAGE_PERIODS, type UsagePeriod } from './usage-period'
import './usage.css'

const GROUPINGS: { value: UsageGrouping; label: string; column: string }[] = [
  { value: 'days', label: 'Day', column: 'Day' },
  { value: 'models', label: 'Model', column: 'Model' },
  { value: 'projects', label: 'Project', column: 'Project' },
  { value: 'agents', label: 'Agent', column: 'Agent' },
]

const ALL_PROJECTS = ''

/** "$1.2345", and how many replies it leaves out for want of a price. */
function costText(totals: UsageTotals): string {
  const cost = totals.cost > 0 ? formatCost(totals.cost) : '$0'
  return totals.unpriced > 0 ? `${cost} (+${formatNumber(totals.unpriced)} unpriced)` : cost
}

function UsageCells(props: { totals: UsageTotals }): JSX.Element {
  return (
    <>
      <td>{formatNumber(props.totals.replies)}</td>
      <td>{formatNumber(props.totals.tokens.input)}</td>
      <td>{formatNumber(props.totals.tokens.output)}</td>
      <td>{formatNumber(props.totals.tokens.reasoning)}</td>
      <td>{formatNumber(props.totals.tokens.cacheRead)}</td>
      <td>{formatNumber(props.totals.tokens.cacheWrite)}</td>
      <td>{costText(props.totals)}</td>
    </>
  )
}

/**
 * Usage over time (issue 33): tokens and cost of the stored replies by day, model, project or agent, for a period and
 * one project or all, as `opencode stats` shows them. Loaded on first open; the worker reads the store, so it works
 * offline.
 */
export default function UsageDialog(props: { api: Pick<ClientApi, 'usageReport' | 'listProjects'>; onClose: () => void }): JSX.Element {
  const usage = createUsage(props.api)
  const [grouping, setGrouping] = createSignal<UsageGrouping>('days')
  const column = () => GROUPINGS.find((entry) => entry.value === grouping())!
  const rows = createMemo((): UsageRow[] => usage.report()?.[grouping()] ?? [])
  const summary = () => {
    const report = usage.report()
    if (!report) return usage.loading() ? 'Reading the stored replies…' : ''
    const { totals } = report
    if (totals.replies === 0) return 'No replies in this period.'
    const sessions = `${formatNumber(totals.sessions)} session${totals.sessions === 1 ? '' : 's'}`
    const replies = `${formatNumber(totals.replies)} repl${totals.replies === 1 ? 'y' : 'ies'}`
    const unpriced = totals.unpriced > 0 ? ` ${formatNumber(totals.unpriced)} of them had no price for their model, so the cost leaves them out.` : ''
    return `${formatCost(totals.cost)} for ${replies} in ${sessions}.${unpriced}`
  }

  return (
    <Dialog title="Usage" class="usage-dialog" onClose={props.onClose}>
      <div class="usage-filters">
        <Field label="Period">
          {(control) => (
            <select id={control.id} class="select" value={usage.period()} onChange={(event) => usage.choosePeriod(event.currentTarget.value as UsagePeriod)}>
              <For each={USAGE_PERIODS}>{(period) => <option value={period.value}>{period.label}</option>}</For>
            </select>
          )}
        </Field>
        <Field label="Project">
          {(control) => (
            <select
              id={control.id}
              class="select"
              value={usage.projectID() ?? ALL_PROJECTS}
              onChange={(event) => usage.chooseProject(event.currentTarget.value || undefined)}
            >
              <option value={ALL_PROJECTS}>All projects</option>
              <For each={usage.projects()}>{(project) => <option value={project.id}>{project.name}</option>}</For>
            </select>
          )}
        </Field>
        <Field label="Group by">
          {(control) => (
            <select id={control.id} class="select" value={grouping()} onChange={(event) => setGrouping(event.currentTarget.value as UsageGrouping)}>
              <For each={GROUPINGS}>{(entry) => <option value={entry.value}>{entry.label}</option>}</For>
            </select>
          )}
        </Field>
      </div>
      <p class="usage-summary" role="status" aria-busy={usage.loading()}>
        {summary()}
      </p>
      <Show when={usage.failure()}>
        <p class="dialog-failure" role="alert">
          {usage.failure()}
        </p>
      </Show>
      <Show when={usage.report() && usage.report()!.totals.replies > 0}>
        <div class="usage-table-frame">
          <table class="usage-table">
            <caption>{`Tokens and cost by ${column().label.toLowerCase()}`}</caption>
            <thead>
              <tr>
                <th scope="col">{column().column}</th>
                <th scope="col">Replies</th>
                <th scope="col">Input</th>
                <th scope="col">Output</th>
                <th scope="col">Reasoning</th>
                <th scope="col">Cache read</th>
                <th scope="col">Cache write</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              <For each={rows()}>
                {(row) => (
                  <tr>
                    <th scope="row">{grouping() === 'days' ? formatCalendarDay(row.label) : row.label}</th>
                    <UsageCells totals={row} />
                  </tr>
                )}
              </For>
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <UsageCells totals={usage.report()!.totals} />
              </tr>
            </tfoot>
          </table>
        </div>
      </Show>
      <DialogActions cancelLabel="Close" focusCancel onCancel={() => props.onClose()} />
    </Dialog>
  )
}
