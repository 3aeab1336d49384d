import { describe, expect, it } from 'vitest'
import type { MessageError } from './schema'
import {
  compactionEndedTurn,
  inboxEmpty,
  modelUnresolved,
  newestIsNotPrompt,
  queuedWithoutModel,
  requestRefused,
  stepFailed,
  stopError,
  userRejected,
} from './stop'

const failure: MessageError = { name: 'UnknownError', data: { message: 'no such provider' } }
const aborted: MessageError = { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }

describe('the loop’s stop conditions', () => {
  it('stop on an empty inbox, and go on while a prompt is queued', () => {
    expect(inboxEmpty({ queued: undefined })).toEqual({ type: 'inbox-empty' })
    expect(inboxEmpty({ queued: { parts: [] } })).toBeUndefined()
  })

  it('stop on a queued prompt without a model to run with', () => {
    expect(queuedWithoutModel({ model: undefined })).toEqual({ type: 'queued-without-model' })
    expect(queuedWithoutModel({ model: { providerID: 'mock', modelID: 'mock-model' } })).toBeUndefined()
  })

  it('stop when the newest message is missing or not a prompt', () => {
    expect(newestIsNotPrompt({ newest: undefined })).toEqual({ type: 'no-prompt' })
    expect(newestIsNotPrompt({ newest: { info: { role: 'assistant' } } })).toEqual({ type: 'no-prompt' })
    expect(newestIsNotPrompt({ newest: { info: { role: 'user' } } })).toBeUndefined()
  })

  it('stop when the compaction step ended the turn, carrying its error', () => {
    expect(compactionEndedTurn({ outcome: 'stop', error: failure })).toEqual({ type: 'compaction-stopped', error: failure })
    expect(compactionEndedTurn({ outcome: 'continue' })).toBeUndefined()
  })

  it('stop when the model did not resolve', () => {
    expect(modelUnresolved({ error: failure })).toEqual({ type: 'model-unresolved', error: failure })
    expect(modelUnresolved({})).toBeUndefined()
  })

  it('stop when the request was refused before sending', () => {
    const overflow: MessageError = { name: 'ContextOverflowError', data: { message: 'too large' } }
    expect(requestRefused({ action: 'stop', error: overflow })).toEqual({ type: 'request-refused', error: overflow })
    expect(requestRefused({ action: 'send' })).toBeUndefined()
    expect(requestRefused({ action: 'compact' })).toBeUndefined()
  })

  it('stop on a step error', () => {
    expect(stepFailed({ error: failure })).toEqual({ type: 'step-failed', error: failure })
    expect(stepFailed({ error: undefined })).toBeUndefined()
  })

  it('stop when the user rejected a permission', () => {
    expect(userRejected({ blocked: true })).toEqual({ type: 'rejected' })
    expect(userRejected({ blocked: false })).toBeUndefined()
  })

  it('show the user a stop’s error, but not an abort they asked for', () => {
    expect(stopError({ type: 'step-failed', error: failure })).toBe(failure)
    expect(stopError({ type: 'step-failed', error: aborted })).toBeUndefined()
    expect(stopError({ type: 'compaction-stopped', error: aborted })).toBeUndefined()
    expect(stopError({ type: 'inbox-empty' })).toBeUndefined()
  })
})
