import { createEffect, createSignal, createUniqueId, For, on, Show, type JSX } from 'solid-js'
import type { ExportFilesPreview, Redaction, ShareLinkPreview, ShareLinkResult } from '../../core/dto/share'
import type { ClientApi, ExportFormat } from '../../core/protocol'
import { Dialog } from '../kit/dialog/dialog'
import { errorMessage } from '../kit/format/error'
import { formatNumber } from '../kit/format/number'
import { formatBytes } from '../storage/persistent-storage'
import { downloadText } from './download'
import { describeLinkSize } from './link-size'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { Checkbox } from '../kit/form/checkbox'
import { TextField } from '../kit/form/field'
import { ProblemNote } from '../kit/form/problem-note'
import './share.css'
import type { Progress } from '../../core/progress'
import { ProgressMeter } from '../kit/progress/progress-meter'
import { callback } from '../worker-client'

export type ShareApi = Pick<ClientApi, 'previewShareLink' | 'createShareLink' | 'exportSession' | 'previewExportFiles' | 'cancelOperation'>

/** What the dialog does outside itself; the browser's own by default, fakes in tests. */
export interface ShareEffects {
  copy: (text: string) => Promise<void>
  /** Absent when the browser has no Web Share API: the "Share…" button is then not offered. */
  share?: ((data: ShareData) => Promise<void>) | undefined
  download: (fileName: string, content: string | Blob) => void
}

function browserEffects(): ShareEffects {
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function'
  return {
    copy: (text) => navigator.clipboard.writeText(text),
    share: canShare ? (data) => navigator.share(data) : undefined,
    download: downloadText,
  }
}

/** Where a link opens: this page without its fragment. */
function pageBase(): string {
  return `${location.origin}${location.pathname}`
}

/**
 * Share a session as a link (its whole history in the URL fragment, compressed; optionally encrypted) or export it
 * as a file. Before making a link the dialog shows how long it will be and which secrets are taken out; a link
 * over the limit is refused and the file export offered instead.
 */
export function ShareDialog(props: {
  api: ShareApi
  sessionID: string
  title: string
  onClose: () => void
  base?: string
  effects?: Partial<ShareEffects>
}): JSX.Element {
  const effects: ShareEffects = { ...browserEffects(), ...props.effects }
  const base = props.base ?? pageBase()
  const ids = {
    link: createUniqueId(),
    outputsHint: createUniqueId(),
    size: createUniqueId(),
    secrets: createUniqueId(),
    url: createUniqueId(),
    export: createUniqueId(),
    format: createUniqueId(),
    unscanned: createUniqueId(),
  }
  const [includeOutputs, setIncludeOutputs] = createSignal(false)
  const [protect, setProtect] = createSignal(false)
  const [passphrase, setPassphrase] = createSignal('')
  const [preview, setPreview] = createSignal<ShareLinkPreview>()
  const [previewFailure, setPreviewFailure] = createSignal<string>()
  const [creating, setCreating] = createSignal(false)
  const [link, setLink] = createSignal<ShareLinkResult>()
  // Set when making the link was refused as too long (the preview can be a few characters short of the real link).
  const [tooLong, setTooLong] = createSignal<string>()
  const [failure, setFailure] = createSignal<string>()
  const [linkNote, setLinkNote] = createSignal<string>()
  const [format, setFormat] = createSignal<ExportFormat>('tabcode')
  const [includeFiles, setIncludeFiles] = createSignal(false)
  const [unscanned, setUnscanned] = createSignal<ExportFilesPreview['unscanned']>()
  const [unscannedFailure, setUnscannedFailure] = createSignal<string>()
  // Binary files the user chose to include; every other one is left out, since nothing could check it for keys.
  const [keep, setKeep] = createSignal<ReadonlySet<string>>(new Set())
  /** The export running now, by its operation id; cancelling forgets it, so its file is never saved. */
  const [running, setRunning] = createSignal<string>()
  const exporting = () => running() !== undefined
  const [exportProgress, setExportProgress] = createSignal<Progress>()
  const [exportNote, setExportNote] = createSignal<{ tone: 'status' | 'alert'; text: string }>()
  let urlField: HTMLInputElement | undefined

  // The meter follows the options; answers to an earlier choice that arrive late are dropped.
  let request = 0
  createEffect(
    on([includeOutputs, protect], async ([includeToolOutput, encrypted]) => {
      const mine = ++request
      setLink(undefined)
      setTooLong(undefined)
      setLinkNote(undefined)
      try {
        const answer = await props.api.previewShareLink({ sessionID: props.sessionID, base, includeToolOutput, encrypted })
        if (mine !== request) return
        setPreview(answer)
        setPreviewFailure(undefined)
      } catch (error) {
        if (mine === request) setPreviewFailure(`Couldn't measure the link: ${errorMessage(error)}`)
      }
    }),
  )

  createEffect(
    on(includeFiles, async (files) => {
      if (!files || unscanned()) return
      try {
        setUnscanned((await props.api.previewExportFiles({ sessionID: props.sessionID })).unscanned)
        setUnscannedFailure(undefined)
      } catch (error) {
        setUnscannedFailure(`Couldn't list the files that can't be scanned: ${errorMessage(error)}`)
      }
    }),
  )
  const toggleKeep = (path: string, kept: boolean) => {
    const next = new Set(keep())
    if (kept) next.add(path)
    else next.delete(path)
    setKeep(next)
  }

  const size = () => {
    const current = preview()
    return current ? describeLinkSize(current) : undefined
  }
  const over = () => size()?.level === 'over' || tooLong() !== undefined
  const canCreate = () => !!preview() && !over() && !creating() && (!protect() || passphrase().length > 0)

  const create = async () => {
    if (!canCreate()) return
    setCreating(true)
    setFailure(undefined)
    setLinkNote(undefined)
    try {
      const result = await props.api.createShareLink({
        sessionID: props.sessionID,
        base,
        includeToolOutput: includeOutputs(),
        ...(protect() ? { passphrase: passphrase() } : {}),
      })
      setLink(result)
      requestAnimationFrame(() => urlField?.select())
    } catch (error) {
      if (error instanceof Error && error.name === 'ShareTooLongError') setTooLong(error.message)
      else setFailure(`Couldn't create the link: ${errorMessage(error)}`)
    } finally {
      setCreating(false)
    }
  }

  const copy = async (url: string) => {
    try {
      await effects.copy(url)
      setLinkNote('Link copied.')
    } catch {
      urlField?.select()
      setLinkNote("Couldn't copy automatically: the link is selected, copy it with Ctrl+C (⌘C).")
    }
  }

  const share = async (url: string) => {
    try {
      await effects.share?.({ title: props.title, url })
    } catch (error) {
      // Closing the system share sheet rejects with AbortError: the user changed their mind, nothing failed.
      if (error instanceof Error && error.name === 'AbortError') return
      setLinkNote(`Couldn't share: ${errorMessage(error)}`)
    }
  }

  const exportFile = async () => {
    const operationID = `export-${crypto.randomUUID()}`
    setRunning(operationID)
    setExportProgress({ type: 'working' })
    setExportNote(undefined)
    try {
      const files = includeFiles() && format() === 'tabcode'
      const kept = files ? [...keep()] : []
      const file = await props.api.exportSession(
        {
          sessionID: props.sessionID,
          format: format(),
          operationID,
          ...(files ? { includeFiles: true } : {}),
          ...(kept.length ? { includeUnscanned: kept } : {}),
        },
        callback((report: Progress) => running() === operationID && setExportProgress(report)),
      )
      // Cancelled after the worker had finished: still nothing is saved.
      if (running() !== operationID) return
      effects.download(file.fileName, file.data)
      const removed = file.redactions.length
      const leftOut = file.leftOut?.length ?? 0
      const notes = [
        ...(removed ? [`${removed} secret${removed === 1 ? '' : 's'} removed`] : []),
        ...(leftOut ? [`${leftOut} unscanned file${leftOut === 1 ? '' : 's'} left out`] : []),
      ]
      setExportNote({ tone: 'status', text: `Saved ${file.fileName}${notes.length ? ` (${notes.join(', ')})` : ''}.` })
    } catch (error) {
      if (running() !== operationID) return
      setExportNote({ tone: 'alert', text: `Couldn't export the session: ${errorMessage(error)}` })
    } finally {
      if (running() === operationID) setRunning(undefined)
      setExportProgress(undefined)
    }
  }
  const cancelExport = () => {
    const operationID = running()
    if (!operationID) return
    setRunning(undefined)
    setExportProgress(undefined)
    void props.api.cancelOperation(operationID).catch(() => undefined)
    setExportNote({ tone: 'status', text: 'Export cancelled. Nothing was saved.' })
  }

  return (
    <Dialog
      title="Share session"
      class="share-dialog"
      description={<p>Anyone with the link can read this session: it holds the whole conversation, with no server in between.</p>}
      onClose={() => props.onClose()}
    >
      <section class="share-section" aria-labelledby={ids.link}>
        <h3 id={ids.link} class="share-heading">
          Link
        </h3>
        <label class="share-option">
          <input type="checkbox" checked={includeOutputs()} aria-describedby={ids.outputsHint} onChange={(event) => setIncludeOutputs(event.currentTarget.checked)} />
          Include tool outputs in full
        </label>
        <p id={ids.outputsHint} class="field-hint">
          {includeOutputs()
            ? 'Every tool output is shared whole.'
            : `Tool outputs are cut to 200 characters${preview()?.shortened ? ` (${preview()!.shortened} shortened)` : ''}.`}
        </p>
        <Checkbox class="share-option" label="Protect with a passphrase" checked={protect()} onChange={setProtect} />
        <Show when={protect()}>
          <TextField
            class="share-passphrase"
            label="Passphrase"
            hint="Whoever opens the link needs it. It is not stored anywhere: send it separately from the link."
            type="password"
            autocomplete="new-password"
            value={passphrase()}
            onValue={(value) => {
              setPassphrase(value)
              setLink(undefined)
            }}
          />
        </Show>

        <div class="share-size">
          <span id={ids.size} class="field-label">
            Link size
          </span>
          <meter
            class="share-meter"
            aria-labelledby={ids.size}
            min={0}
            max={preview()?.limit ?? 1}
            low={preview()?.comfortable}
            high={preview()?.comfortable}
            optimum={0}
            value={Math.min(preview()?.chars ?? 0, preview()?.limit ?? 1)}
            aria-valuetext={size()?.text ?? 'Measuring…'}
          />
          <span class="share-size-text" data-level={size()?.level}>
            {size()?.text ?? 'Measuring…'}
          </span>
        </div>
        <ProblemNote text={previewFailure()} />
        <Show when={over()}>
          <div class="share-too-long problem" role="alert">
            <p>{tooLong() ?? size()?.advice}</p>
            <button type="button" class="button button-small" disabled={exporting()} onClick={() => void exportFile()}>
              Export as file instead
            </button>
          </div>
        </Show>
        <Show when={!over() && size()?.level === 'long'}>
          <p class="field-hint share-long">{size()?.advice}</p>
        </Show>

        <Show when={preview()}>
          {(current) => <SecretsPreview redactions={current().redactions} headingID={ids.secrets} />}
        </Show>

        <div class="share-actions">
          <button type="button" class="button button-primary" disabled={!canCreate()} onClick={() => void create()}>
            {creating() ? 'Creating…' : 'Create link'}
          </button>
        </div>
        <ProblemNote text={failure()} />
        <Show when={link()}>
          {(made) => (
            <div class="share-result">
              <label class="field-label" for={ids.url}>
                Share link
              </label>
              <input ref={urlField} id={ids.url} class="text-input mono share-url" readOnly value={made().url} onFocus={(event) => event.currentTarget.select()} />
              <p class="field-hint">
                {`${formatNumber(made().chars)} characters${made().encrypted ? ', encrypted with the passphrase' : ''}.`}
              </p>
              <div class="share-actions">
                <button type="button" class="button" onClick={() => void copy(made().url)}>
                  Copy link
                </button>
                <Show when={effects.share}>
                  <button type="button" class="button" onClick={() => void share(made().url)}>
                    Share…
                  </button>
                </Show>
              </div>
            </div>
          )}
        </Show>
        <Show when={linkNote()}>
          <p class="field-hint" role="status">
            {linkNote()}
          </p>
        </Show>
      </section>

      <section class="share-section" aria-labelledby={ids.export}>
        <h3 id={ids.export} class="share-heading">
          Export
        </h3>
        <p class="field-hint">A file holds the whole session at any size, tool outputs in full.</p>
        <fieldset class="share-format">
          <legend class="share-subheading">Format</legend>
          <label class="share-option">
            <input type="radio" name={ids.format} value="tabcode" checked={format() === 'tabcode'} onChange={() => setFormat('tabcode')} />
            <span>
              tabcode <span class="quiet">· imports into tabcode, with subagent sessions and, if you like, the workspace files</span>
            </span>
          </label>
          <label class="share-option">
            <input type="radio" name={ids.format} value="opencode" checked={format() === 'opencode'} onChange={() => setFormat('opencode')} />
            <span>
              opencode <span class="quiet">· what <code>opencode import</code> reads: this session's conversation, without files or subagent sessions</span>
            </span>
          </label>
        </fieldset>
        <Show when={format() === 'tabcode'}>
          <label class="share-option">
            <input type="checkbox" checked={includeFiles()} onChange={(event) => setIncludeFiles(event.currentTarget.checked)} />
            Include workspace files
          </label>
        </Show>
        <Show when={format() === 'tabcode' && includeFiles() && unscanned()?.length}>
          <fieldset class="share-unscanned" aria-describedby={ids.unscanned}>
            <legend class="share-subheading">Not scanned for secrets</legend>
            <p id={ids.unscanned} class="field-hint">
              These files are binary, so they could not be checked for keys. They are left out unless you include them.
            </p>
            <For each={unscanned()}>
              {(file) => (
                <label class="share-option">
                  <input type="checkbox" checked={keep().has(file.path)} onChange={(event) => toggleKeep(file.path, event.currentTarget.checked)} />
                  <span>
                    {`Include ${file.path}`}
                    <span class="quiet">{` · ${formatBytes(file.bytes)}`}</span>
                  </span>
                </label>
              )}
            </For>
          </fieldset>
        </Show>
        <Show when={format() === 'tabcode' && includeFiles() && unscannedFailure()}>
          <p class="problem" role="alert">
            {unscannedFailure()}
          </p>
        </Show>
        <div class="share-actions">
          <button type="button" class="button" disabled={exporting()} onClick={() => void exportFile()}>
            {exporting() ? 'Exporting…' : 'Export as file'}
          </button>
          <Show when={exporting()}>
            <ProgressMeter label="Export progress" progress={exportProgress()} />
            <button type="button" class="button button-quiet" onClick={cancelExport}>
              Cancel export
            </button>
          </Show>
        </div>
        <Show when={exportNote()}>
          {(note) => (
            <p class={note().tone === 'alert' ? 'problem' : 'field-hint'} role={note().tone}>
              {note().text}
            </p>
          )}
        </Show>
      </section>

      <DialogActions cancelLabel="Close" onCancel={() => props.onClose()} />
    </Dialog>
  )
}

/** What the link leaves out: each secret's kind, where it was and a hint to recognise it (never the secret). */
function SecretsPreview(props: { redactions: Redaction[]; headingID: string }): JSX.Element {
  return (
    <Show
      when={props.redactions.length}
      fallback={
        <p class="share-secrets-none" role="note">
          No secrets found
        </p>
      }
    >
      <div class="share-secrets">
        <h4 id={props.headingID} class="share-subheading">
          Secrets removed
        </h4>
        <ul aria-labelledby={props.headingID} class="share-secrets-list">
          <For each={props.redactions}>
            {(redaction) => (
              <li>
                <span class="share-secret-kind">{redaction.kind}</span>
                <span class="mono faint">{` ${redaction.hint}`}</span>
                <span class="quiet">{` · ${redaction.where}`}</span>
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  )
}
