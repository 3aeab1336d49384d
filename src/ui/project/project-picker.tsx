import { createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js'
import type { SessionEvent } from '../../core/event'
import type { Project } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { leftOutText } from './left-out-text'
import { NewProjectDialog, type OfferedZip } from './new-project-dialog'
import type { ProjectApi } from './project-api'
import type { ProjectTrustStore } from './create-project-trust'
import { UntrustedMarker } from './untrusted-marker'
import { UnreviewedMarker } from './unreviewed-marker'
import { FolderMarker } from './folder-marker'
import { UNTRUSTED_IMPORT_NOTICE } from './trust-text'
import { ProblemNote } from '../kit/form/problem-note'
import './project.css'

/** Which project the sidebar shows, a switch to another one, and a way to start a new one. */
export function ProjectPicker(props: {
  api: ProjectApi
  current: Project
  /** The current project's trust: an untrusted one is marked, with the way to trust it. */
  trust?: ProjectTrustStore | undefined
  onSwitch: (project: Project, note?: string) => void
  /** Live events: a project made or renamed elsewhere (another tab, another device through sync) joins the list. */
  listen?: (handler: (event: SessionEvent) => void) => () => void
  /** A zip the system opened with tabcode: the new-project dialog opens with it, and `onOfferClosed` when it closes. */
  offeredZip?: OfferedZip | undefined
  onOfferClosed?: () => void
}): JSX.Element {
  const [projects, { refetch }] = createResource(() => props.api.listProjects())
  if (props.listen) {
    onCleanup(
      props.listen((event) => {
        if (event.type !== 'project.updated') return
        const known = projects()?.find((project) => project.id === event.info.id)
        if (!known || known.name !== event.info.name) void refetch()
      }),
    )
  }
  const [creating, setCreating] = createSignal(false)
  const [problem, setProblem] = createSignal<string>()
  const close = (offer: boolean) => (offer ? props.onOfferClosed?.() : setCreating(false))

  const open = async (projectID: string, note?: string) => {
    if (projectID === props.current.id) return
    try {
      props.onSwitch(await props.api.openProject(projectID), note)
    } catch (error) {
      setProblem(`Couldn't open the project: ${errorMessage(error)}`)
    }
  }

  return (
    <div class="project-picker">
      <label class="project-label" for="project-select">
        Project
      </label>
      <div class="project-row">
        <select id="project-select" onChange={(event) => void open(event.currentTarget.value)}>
          {/* `selected` per option: the list arrives after the select is made, so a value set on it would not stick. */}
          <For each={projects() ?? [props.current]}>
            {(project) => (
              <option value={project.id} selected={project.id === props.current.id}>
                {project.name}
              </option>
            )}
          </For>
        </select>
        <button type="button" class="button button-small" onClick={() => setCreating(true)}>
          New project
        </button>
      </div>
      <FolderMarker api={props.api} project={props.current} />
      <Show when={props.trust}>
        {(trust) => (
          <>
            <UntrustedMarker trust={trust()} />
            <UnreviewedMarker trust={trust()} />
          </>
        )}
      </Show>
      <ProblemNote text={problem()} />
      {/* Keyed: each zip gets a dialog of its own, which reads it once; one that arrives while the user fills the dialog
          in waits for it to close. */}
      <Show when={creating() || props.offeredZip} keyed>
        {(offer) => (
          <NewProjectDialog
            api={props.api}
            offered={offer === true ? undefined : offer}
            onClose={() => close(offer !== true)}
            onCreated={async ({ project, leftOut }) => {
              close(offer !== true)
              await refetch()
              const notes = [project.trust.type === 'trusted' ? undefined : UNTRUSTED_IMPORT_NOTICE, leftOutText(leftOut)].filter(Boolean)
              await open(project.id, notes.length ? notes.join(' ') : undefined)
            }}
          />
        )}
      </Show>
    </div>
  )
}
