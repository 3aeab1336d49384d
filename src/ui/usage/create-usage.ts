import { createSignal } from 'solid-js'
import type { ClientApi, UsageReport } from '../../core/protocol'
import type { Project } from '../../core/schema'
import { createNewestAnswer } from '../kit/load/newest-answer'
import { periodStart, userTimeZone, type UsagePeriod } from './usage-period'

export type UsageGrouping = 'days' | 'models' | 'projects' | 'agents'

/**
 * The usage view's state: the period and project asked for, the report the worker answered for them (a newer choice
 * wins over a slower older answer), and the projects to choose from.
 */
export function createUsage(api: Pick<ClientApi, 'usageReport' | 'listProjects'>, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now
  const [period, setPeriod] = createSignal<UsagePeriod>('30')
  const [projectID, setProjectID] = createSignal<string>()
  const [report, setReport] = createSignal<UsageReport>()
  const [loading, setLoading] = createSignal(true)
  const [failure, setFailure] = createSignal<string>()
  const [projects, setProjects] = createSignal<Project[]>([])
  const newest = createNewestAnswer()

  const load = () => {
    setLoading(true)
    setFailure(undefined)
    const since = periodStart(period(), now())
    const project = projectID()
    void newest.load(
      () => api.usageReport({ timeZone: userTimeZone(), ...(since !== undefined ? { since } : {}), ...(project ? { projectID: project } : {}) }),
      {
        answer: setReport,
        failure: (error) => setFailure(`Could not read the usage: ${error instanceof Error ? error.message : String(error)}`),
        settled: () => setLoading(false),
      },
    )
  }
  void api.listProjects().then(setProjects, () => setProjects([]))
  load()

  return {
    period,
    projectID,
    report,
    loading,
    failure,
    projects,
    choosePeriod(value: UsagePeriod) {
      setPeriod(value)
      load()
    },
    chooseProject(value: string | undefined) {
      setProjectID(value)
      load()
    },
  }
}

export type Usage = ReturnType<typeof createUsage>
