import { For, type JSX } from 'solid-js'
import { Dialog } from '../dialog/dialog'
import { SHORTCUTS } from './shortcuts'
import { DialogActions } from '../dialog/dialog-actions'
import './shortcuts-dialog.css'

export function ShortcutsDialog(props: { onClose: () => void }): JSX.Element {
  return (
    <Dialog title="Keyboard shortcuts" onClose={props.onClose}>
      <table class="shortcuts">
        <tbody>
          <For each={SHORTCUTS}>
            {(shortcut) => (
              <tr>
                <th scope="row">
                  <kbd>{shortcut.label}</kbd>
                </th>
                <td>{shortcut.description}</td>
              </tr>
            )}
          </For>
          <tr>
            <th scope="row">
              <kbd>Enter</kbd>
            </th>
            <td>Send the prompt (Shift + Enter for a new line); while a turn runs, it joins that turn</td>
          </tr>
          <tr>
            <th scope="row">
              <kbd>Alt + Enter</kbd>
            </th>
            <td>While a turn runs: queue the prompt to run after it</td>
          </tr>
          <tr>
            <th scope="row">
              <kbd>Escape</kbd>
            </th>
            <td>Close a dialog or cancel renaming</td>
          </tr>
        </tbody>
      </table>
      <DialogActions cancelLabel="Close" focusCancel onCancel={() => props.onClose()} />
    </Dialog>
  )
}
