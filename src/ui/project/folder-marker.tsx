import { createResource, createSignal, onCleanup, Show, type JSX } from 'solid-js'
import { log } from '../../core/log'
import type { ProjectFolderStatus } from '../../core/protocol'
import type { Project } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { ProblemNote } from '../kit/form/problem-note'
import { requestFolderAccess } from './folder-access'
import type { ProjectApi } from './project-api'

/**
 * The sidebar's line for a project that is a folder on disk: which folder, and, until the user gives access again
 * in this tab, the one button that does ("Reconnect to NAME"). The browser keeps the folder's handle but not the
 * permission across restarts, and asks for it only on a click; the app also only holds the handle, so it asks
 * after every load of the page (a grant still in force makes the click answer at once).
 */
export function FolderMarker(props: { api: Pick<ProjectApi, 'projectFolder' | 'connectFolder' | 'refreshFolder'>; project: Project }): JSX.Element {
  const [folder, { mutate }] = createResource(
    () => (props.project.origin.type === 'disk' ? props.project.id : undefined),
    (projectID) => props.api.projectFolder({ projectID }),
  )
  const [problem, setProblem] = createSignal<string>()
  // Back from another editor or a terminal: the folder is looked at again, so the tree and Changes follow at once.
  const onFocus = () => {
    if (!folder()?.connected) return
    props.api.refreshFolder({ projectID: props.project.id }).catch((error: unknown) => log.warn('tabcode: could not look at the folder again', error))
  }
  window.addEventListener('focus', onFocus)
  onCleanup(() => window.removeEventListener('focus', onFocus))
  const [busy, setBusy] = createSignal(false)

  const reconnect = async (status: ProjectFolderStatus) => {
    setBusy(true)
    setProblem(undefined)
    try {
      if (!(await requestFolderAccess(status.handle))) {
        setProblem(`The browser did not give access to ${status.name}. Click again to be asked once more.`)
        return
      }
      mutate(await props.api.connectFolder({ projectID: props.project.id }))
    } catch (error) {
      setProblem(`Couldn't reconnect to ${status.name}: ${errorMessage(error)}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Show when={folder()}>
      {(status) => (
        <div class="folder-marker" role="group" aria-label="Folder on disk">
          <Show when={!status().connected} fallback={<span class="quiet">Works on the folder {status().name} on disk.</span>}>
            <span class="folder-marker-note">tabcode needs your permission again for the folder {status().name}; until then its tools stop.</span>
            <button type="button" class="button button-small" disabled={busy()} onClick={() => void reconnect(status())}>
              Reconnect to {status().name}
            </button>
          </Show>
          <ProblemNote text={problem()} />
        </div>
      )}
    </Show>
  )
}
