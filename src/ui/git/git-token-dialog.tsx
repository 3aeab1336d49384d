import { createSignal, Show, type JSX } from 'solid-js'
import type { GitTokenAsk } from '../../core/protocol/git-remotes'
import { log } from '../../core/log'
import { Dialog } from '../kit/dialog/dialog'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { TextField } from '../kit/form/field'
import { callback, type WorkerConnection } from '../worker-client'

/**
 * Token asks from this tab's worker (a git push or fetch the server answered with 401 and no token was kept for its
 * host): one dialog at a time, oldest first. The token goes to the worker only; the page keeps no copy.
 */
export function createGitTokenAsks(connection: WorkerConnection) {
  const [asks, setAsks] = createSignal<GitTokenAsk[]>([])
  const drop = (id: string) => setAsks((list) => list.filter((ask) => ask.id !== id))
  void connection.api
    .onNotice(
      callback((notice) => {
        if (notice.type === 'git-token-wanted') setAsks((list) => [...list, notice.ask])
        else if (notice.type === 'git-token-settled') drop(notice.id)
      }),
    )
    .catch((error: unknown) => log.warn('tabcode: could not subscribe to git token asks', error))
  const answer = (id: string, token: string | null) => {
    drop(id)
    void connection.api.answerGitToken({ id, token }).catch((error: unknown) => log.warn('tabcode: could not answer a git token ask', error))
  }
  return { current: () => asks()[0], answer }
}

export function GitTokenDialog(props: { asks: ReturnType<typeof createGitTokenAsks> }): JSX.Element {
  return (
    <Show when={props.asks.current()} keyed>
      {(ask) => <TokenForm ask={ask} onAnswer={(token) => props.asks.answer(ask.id, token)} />}
    </Show>
  )
}

function TokenForm(props: { ask: GitTokenAsk; onAnswer: (token: string | null) => void }): JSX.Element {
  const [token, setToken] = createSignal('')
  return (
    <Dialog
      title={`Token for ${props.ask.host}`}
      description={
        <>
          git needs a token to reach <code>{props.ask.url}</code>. It is sent to {props.ask.host} only, kept in this
          browser once the server accepts it (Settings lists it), and never shown again or exported.
        </>
      }
      onClose={() => props.onAnswer(null)}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (token().trim()) props.onAnswer(token())
        }}
      >
        <TextField label="Token" type="password" autocomplete="off" value={token()} onValue={setToken} data-autofocus="" mono />
        <DialogActions onCancel={() => props.onAnswer(null)} action={{ label: 'Save', tone: 'primary', disabled: !token().trim() }} />
      </form>
    </Dialog>
  )
}
