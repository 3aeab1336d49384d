import type { ModelReference } from '../schema'
import type { ProviderConfig } from './schema'

/**
 * The configured model a project file means by `provider/model` (opencode's names, such as `anthropic/claude-sonnet-4`):
 * our providers are the user's own entries with generated ids, so the provider part matches an id, else a provider
 * type, else a provider's name (case and spaces aside); the model must be one of that provider's. Undefined when
 * nothing configured here offers it.
 */
export function namedModel(reference: Pick<ModelReference, 'providerID' | 'modelID'>, providers: readonly ProviderConfig[]): ModelReference | undefined {
  const wanted = reference.providerID.toLowerCase()
  const slug = (name: string) => name.trim().toLowerCase().replace(/\s+/g, '-')
  const offers = (provider: ProviderConfig) => provider.models.some((model) => model.id === reference.modelID)
  const found =
    providers.find((provider) => provider.id === reference.providerID && offers(provider)) ??
    providers.find((provider) => provider.type === wanted && offers(provider)) ??
    providers.find((provider) => slug(provider.name) === wanted && offers(provider))
  return found ? { providerID: found.id, modelID: reference.modelID } : undefined
}

/** `provider/model` split at the first slash: model ids may contain slashes themselves (OpenRouter's do). */
export function modelReference(text: string): { providerID: string; modelID: string } {
  const slash = text.indexOf('/')
  return { providerID: text.slice(0, slash), modelID: text.slice(slash + 1) }
}
