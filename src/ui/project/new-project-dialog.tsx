import { createSignal, Show, type JSX } from 'solid-js'
import type { CreatedProject, ProjectSource } from '../../core/protocol'
import { Dialog } from '../kit/dialog/dialog'
import { errorMessage } from '../kit/format/error'
import type { ProjectApi } from './project-api'
import { readDroppedItems, readPickedFiles } from './read-dropped-files'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { ProblemNote } from '../kit/form/problem-note'
import { canOpenFolders, pickFolder } from './folder-access'
import type { Progress } from '../../core/progress'
import { ProgressMeter } from '../kit/progress/progress-meter'
import { callback } from '../worker-client'

type Source = 'empty' | 'folder' | 'zip' | 'disk' | 'clone'

/** What to say where a folder cannot be opened in place, and what works instead. */
export const NO_FOLDER_ACCESS_TEXT =
  'This browser cannot let tabcode work on a folder on disk: that needs the File System Access API, which Chromium-based ' +
  'browsers (Chrome, Edge, Brave, Opera) have and Firefox and Safari do not. Here, import the folder as a copy instead; ' +
  'when the agent is done, take the files back with "Download zip" in the Files panel.'

/** A zip archive the system opened with tabcode (its file handler), offered here: it becomes a project only once the user presses Create project. */
export interface OfferedZip {
  fileName: string
  data: Uint8Array
}

/**
 * A new project: a name, and its files from nothing, a folder (picked or dropped), a zip archive or a git
 * repository's URL, all copied into the browser; or a folder on disk the project works on in place, where the browser
 * can open one.
 */
export function NewProjectDialog(props: {
  api: ProjectApi
  onClose: () => void
  onCreated: (created: CreatedProject) => void
  /** Read once, when the dialog opens: the zip it starts from. */
  offered?: OfferedZip | undefined
}): JSX.Element {
  const offered = props.offered
  const [name, setName] = createSignal(offered ? offered.fileName.replace(/\.zip$/i, '') : '')
  const [source, setSource] = createSignal<Source>(offered ? 'zip' : 'empty')
  const [picked, setPicked] = createSignal<ProjectSource>(offered ? { type: 'zip', data: offered.data } : { type: 'empty' })
  const [summary, setSummary] = createSignal<string | undefined>(offered?.fileName)
  const [problem, setProblem] = createSignal<string>()
  const [busy, setBusy] = createSignal(false)
  const [url, setUrl] = createSignal('')
  /** The files being copied in (a folder's or a zip's), by operation id, with how far they are. */
  const [copying, setCopying] = createSignal<string>()
  const [progress, setProgress] = createSignal<Progress>()
  const stopCopying = () => {
    const operationID = copying()
    if (!operationID) return
    setCopying(undefined)
    void props.api.cancelOperation(operationID).catch(() => undefined)
  }

  const choose = (next: ProjectSource, description: string) => {
    setPicked(next)
    setSummary(description)
    setProblem(undefined)
  }

  const openFolder = async () => {
    try {
      const handle = await pickFolder()
      if (!handle) return
      if (!name().trim()) setName(handle.name)
      choose({ type: 'disk', handle }, `the folder ${handle.name}, worked on in place`)
    } catch (error) {
      setProblem(`Couldn't open the folder: ${errorMessage(error)}`)
    }
  }

  const create = async (event: SubmitEvent) => {
    event.preventDefault()
    if (source() === 'disk' && !canOpenFolders()) return setProblem(NO_FOLDER_ACCESS_TEXT)
    if (source() === 'disk' && picked().type !== 'disk') return setProblem('Open a folder first.')
    if (!name().trim()) return setProblem('Give the project a name.')
    if (source() === 'clone' && !/^https?:\/\/\S+$/.test(url().trim())) return setProblem('Give the repository’s http:// or https:// URL.')
    if (source() !== 'empty' && source() !== 'clone' && picked().type === 'empty') return setProblem(source() === 'zip' ? 'Choose a zip file.' : 'Choose a folder.')
    setBusy(true)
    setProblem(undefined)
    const from: ProjectSource = source() === 'empty' ? { type: 'empty' } : source() === 'clone' ? { type: 'clone', url: url().trim() } : picked()
    // A folder's or a zip's files are copied in before anything is stored, so that can be followed and stopped.
    const operationID = from.type === 'files' || from.type === 'zip' ? `project-${crypto.randomUUID()}` : undefined
    setCopying(operationID)
    setProgress(operationID ? { type: 'working' } : undefined)
    try {
      const created = await props.api.createProject(
        { name: name(), source: from, ...(operationID ? { operationID } : {}) },
        callback((report: Progress) => copying() === operationID && setProgress(report)),
      )
      props.onCreated(created)
    } catch (error) {
      if (error instanceof Error && error.name === 'CancelledError') setProblem('Stopped: no project was created.')
      else setProblem(`Couldn't create the project: ${errorMessage(error)}`)
    } finally {
      setBusy(false)
      setCopying(undefined)
      setProgress(undefined)
    }
  }

  return (
    <Dialog title="New project" onClose={props.onClose} class="new-project-dialog">
      <form class="new-project-form" onSubmit={(event) => void create(event)}>
        <Show when={offered}>
          {(zip) => (
            <p class="quiet" role="note">
              tabcode was asked to open the zip archive {zip().fileName}. Nothing is imported until you press Create project; the new project
              starts untrusted.
            </p>
          )}
        </Show>
        <label for="new-project-name">Name</label>
        <input id="new-project-name" data-autofocus value={name()} onInput={(event) => setName(event.currentTarget.value)} />
        <fieldset>
          <legend>Start from</legend>
          <label>
            <input type="radio" name="new-project-source" checked={source() === 'empty'} onChange={() => setSource('empty')} /> An empty folder
          </label>
          <label>
            <input type="radio" name="new-project-source" checked={source() === 'folder'} onChange={() => setSource('folder')} /> A folder
          </label>
          <label>
            <input type="radio" name="new-project-source" checked={source() === 'zip'} onChange={() => setSource('zip')} /> A zip archive
          </label>
          <label>
            <input type="radio" name="new-project-source" checked={source() === 'disk'} onChange={() => setSource('disk')} /> A folder on disk, worked on
            in place
          </label>
          <label>
            <input type="radio" name="new-project-source" checked={source() === 'clone'} onChange={() => setSource('clone')} /> Clone repository
          </label>
        </fieldset>
        <Show when={source() === 'disk'}>
          <Show
            when={canOpenFolders()}
            fallback={
              <div class="folder-access-note" role="note">
                <p>{NO_FOLDER_ACCESS_TEXT}</p>
                <button type="button" class="button button-small" onClick={() => setSource('folder')}>
                  Import a folder as a copy
                </button>
              </div>
            }
          >
            <p class="quiet">The agent, the editor and the terminal read and write the folder itself; your own editor and git keep working on it.</p>
            <button type="button" class="button button-small" onClick={() => void openFolder()}>
              Open folder…
            </button>
          </Show>
        </Show>
        <Show when={source() === 'clone'}>
          <label for="new-project-url">Repository URL</label>
          <input
            id="new-project-url"
            type="url"
            placeholder="https://example.com/team/app.git"
            aria-describedby="new-project-url-hint"
            value={url()}
            onInput={(event) => setUrl(event.currentTarget.value)}
          />
          <p id="new-project-url-hint" class="quiet">
            The server must allow cross-origin requests, or set a CORS proxy in Settings. A cloned project starts untrusted.
          </p>
        </Show>
        <Show when={source() === 'folder'}>
          <label for="new-project-folder">Folder</label>
          <input
            id="new-project-folder"
            type="file"
            {...({ webkitdirectory: true } as Record<string, unknown>)}
            onChange={async (event) => {
              const files = await readPickedFiles(event.currentTarget.files ?? [])
              choose({ type: 'files', files }, `${files.length} files`)
            }}
          />
        </Show>
        <Show when={source() === 'zip'}>
          <label for="new-project-zip">Zip file</label>
          <input
            id="new-project-zip"
            type="file"
            accept=".zip,application/zip"
            onChange={async (event) => {
              const file = event.currentTarget.files?.[0]
              if (file) choose({ type: 'zip', data: new Uint8Array(await file.arrayBuffer()) }, file.name)
            }}
          />
        </Show>
        <div
          class="drop-zone"
          role="group"
          aria-label="Drop a folder or a zip file here"
          onDragOver={(event) => event.preventDefault()}
          onDrop={async (event) => {
            event.preventDefault()
            if (!event.dataTransfer) return
            const dropped = await readDroppedItems(event.dataTransfer.items)
            if (dropped.zip) {
              setSource('zip')
              choose({ type: 'zip', data: dropped.zip }, 'the dropped zip file')
            } else {
              setSource('folder')
              choose({ type: 'files', files: dropped.files }, `${dropped.files.length} dropped files`)
            }
          }}
        >
          Or drop a folder or a zip file here.
        </div>
        <Show when={summary()}>
          <p class="quiet" role="status">
            Chosen: {summary()}
          </p>
        </Show>
        <Show when={busy() && source() === 'clone'}>
          <p class="quiet" role="status">
            Cloning {url().trim()}…
          </p>
        </Show>
        <Show when={copying()}>
          <p class="quiet" role="status">
            Copying the files… <ProgressMeter label="Project files progress" progress={progress()} />
            <button type="button" class="button button-small button-quiet" onClick={stopCopying}>
              Stop copying
            </button>
          </p>
        </Show>
        <ProblemNote text={problem()} />
        <DialogActions onCancel={() => props.onClose()} action={{ label: 'Create project', tone: 'primary', disabled: busy() }} />
      </form>
    </Dialog>
  )
}
