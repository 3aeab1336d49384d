import { createResource, For, Match, Show, Switch, type JSX } from 'solid-js'
import type { RevertPreview } from '../../core/protocol'
import { Dialog } from '../kit/dialog/dialog'
import { errorMessage } from '../kit/format/error'
import { createAttempt } from '../kit/dialog/create-attempt'
import { DialogActions } from '../kit/dialog/dialog-actions'
import './history.css'

const CHANGE_TEXT = { restore: 'restored', delete: 'deleted' } as const

/**
 * The confirmation of a revert: how many messages it hides and, when files are reverted too, each file and what
 * happens to it, read from the worker's preview before anything changes (opencode's users lost work to reverts that
 * changed files without saying so). Cancel has the initial focus.
 */
export function RevertDialog(props: {
  files: boolean
  preview: () => Promise<RevertPreview>
  onRevert: () => Promise<void>
  onClose: () => void
}): JSX.Element {
  const [preview] = createResource(props.preview)
  const attempt = createAttempt()
  const busy = attempt.busy
  const title = () => (props.files ? 'Revert conversation and files' : 'Revert conversation')
  const loaded = () => (preview.state === 'ready' ? preview() : undefined)
  return (
    <Dialog title={title()} class="revert-dialog" onClose={() => !busy() && props.onClose()}>
      <Switch>
        <Match when={preview.error as unknown}>
          <p class="dialog-failure" role="alert">
            Couldn't check what the revert changes: {errorMessage(preview.error)}
          </p>
        </Match>
        <Match when={!loaded()}>
          <p class="quiet">Checking what the revert changes…</p>
        </Match>
        <Match when={loaded()}>
          {(shown) => (
            <>
              <p>
                {shown().messages === 1 ? '1 message will be hidden.' : `${shown().messages} messages will be hidden.`} They are
                removed for good when you send the next prompt; until then, Unrevert brings them back.
              </p>
              <Show when={props.files} fallback={<p>Files are left as they are.</p>}>
                <Show when={shown().files.length} fallback={<p>No files will change.</p>}>
                  <ul class="revert-files" role="list" aria-label="Files that will change">
                    <For each={shown().files}>
                      {(file) => (
                        <li>
                          <span class="mono">{file.path}</span> <span class="revert-change">{CHANGE_TEXT[file.change]}</span>
                        </li>
                      )}
                    </For>
                  </ul>
                </Show>
              </Show>
            </>
          )}
        </Match>
      </Switch>
      <DialogActions
        attempt={attempt}
        focusCancel
        onCancel={() => props.onClose()}
        action={{ label: busy() ? 'Reverting…' : 'Revert', tone: 'danger', disabled: busy() || !loaded(), onClick: () => void attempt.run(props.onRevert) }}
      />
    </Dialog>
  )
}
