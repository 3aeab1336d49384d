import { describe, expect, it } from 'vitest'
import { namedModel } from './named-model'
import type { ProviderConfig } from './schema'

const provider = (id: string, type: string, name: string, models: string[]) =>
  ({ id, type, name, models: models.map((model) => ({ id: model })) }) as unknown as ProviderConfig

describe('a project file’s provider/model', () => {
  const providers = [provider('prv_a', 'openai-compatible', 'Local Mock', ['mock-model']), provider('prv_b', 'anthropic', 'Work', ['claude-sonnet-4'])]

  it('matches a provider by id, type or name, and only with that model', () => {
    expect(namedModel({ providerID: 'prv_a', modelID: 'mock-model' }, providers)).toEqual({ providerID: 'prv_a', modelID: 'mock-model' })
    expect(namedModel({ providerID: 'anthropic', modelID: 'claude-sonnet-4' }, providers)).toEqual({ providerID: 'prv_b', modelID: 'claude-sonnet-4' })
    expect(namedModel({ providerID: 'local-mock', modelID: 'mock-model' }, providers)).toEqual({ providerID: 'prv_a', modelID: 'mock-model' })
    expect(namedModel({ providerID: 'anthropic', modelID: 'claude-opus-9' }, providers)).toBeUndefined()
    expect(namedModel({ providerID: 'openai', modelID: 'gpt-4o' }, providers)).toBeUndefined()
  })
})
