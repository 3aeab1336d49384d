// Zod-free on purpose: the settings UI imports this at runtime (schema.ts would pull zod into the main bundle).
import type { ProviderType } from './schema'

export interface ProviderTypeInfo {
  type: ProviderType
  label: string
  /** The API root the SDK uses when no base URL is set; shown as the placeholder. */
  defaultBaseURL?: string
  /** Hosted APIs refuse requests without a key; OpenAI-compatible servers may not need one. */
  needsKey: boolean
  keyPlaceholder: string
  /** An example model id for the "Model ID" field. */
  modelPlaceholder: string
}

export const PROVIDER_TYPE_INFO: readonly ProviderTypeInfo[] = [
  {
    type: 'openai',
    label: 'OpenAI',
    defaultBaseURL: 'https://api.openai.com/v1',
    needsKey: true,
    keyPlaceholder: 'sk-…',
    modelPlaceholder: 'gpt-4.1-mini',
  },
  {
    type: 'anthropic',
    label: 'Anthropic',
    defaultBaseURL: 'https://api.anthropic.com/v1',
    needsKey: true,
    keyPlaceholder: 'sk-ant-…',
    modelPlaceholder: 'claude-sonnet-4-5',
  },
  {
    type: 'google',
    label: 'Google Gemini',
    defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta',
    needsKey: true,
    keyPlaceholder: 'AIza…',
    modelPlaceholder: 'gemini-2.5-flash',
  },
  {
    type: 'openai-compatible',
    label: 'OpenAI-compatible',
    needsKey: false,
    keyPlaceholder: 'Optional for local servers',
    modelPlaceholder: 'llama3.2',
  },
]

export function providerTypeInfo(type: ProviderType): ProviderTypeInfo {
  return PROVIDER_TYPE_INFO.find((info) => info.type === type) ?? PROVIDER_TYPE_INFO[0]!
}

export type EndpointPresetID = 'ollama' | 'lm-studio' | 'llama-cpp' | 'vllm' | 'openrouter' | 'groq'

/** Well-known OpenAI-compatible endpoints, with what to change when the browser is refused (CORS). */
export interface EndpointPreset {
  id: EndpointPresetID
  label: string
  baseURL: string
  local: boolean
  needsKey: boolean
  /** How to let a web page call this server; `{origin}` is replaced by this page's origin. */
  corsFix: string
  /** What to check when nothing answers. */
  startHint: string
}

export const ENDPOINT_PRESETS: readonly EndpointPreset[] = [
  {
    id: 'ollama',
    label: 'Ollama',
    baseURL: 'http://localhost:11434/v1',
    local: true,
    needsKey: false,
    corsFix:
      'Ollama only answers pages it trusts: restart it with OLLAMA_ORIGINS={origin} (for example `OLLAMA_ORIGINS={origin} ollama serve`, or set it with launchctl/systemctl for the app).',
    startHint: 'Is Ollama running? Start it with `ollama serve` (or open the Ollama app).',
  },
  {
    id: 'lm-studio',
    label: 'LM Studio',
    baseURL: 'http://localhost:1234/v1',
    local: true,
    needsKey: false,
    corsFix: 'In LM Studio open the Developer tab, server settings, and turn on "Enable CORS", then restart the server.',
    startHint: "Is LM Studio's server running? Start it in the Developer tab (Status: Running).",
  },
  {
    id: 'llama-cpp',
    label: 'llama.cpp server',
    baseURL: 'http://localhost:8080/v1',
    local: true,
    needsKey: false,
    corsFix: 'llama-server allows browsers by default; check that nothing (a proxy) in front of it strips the CORS headers.',
    startHint: 'Is llama-server running? Start it with `llama-server -m <model.gguf> --port 8080`.',
  },
  {
    id: 'vllm',
    label: 'vLLM',
    baseURL: 'http://localhost:8000/v1',
    local: true,
    needsKey: false,
    corsFix: `Start vLLM with --allowed-origins '["{origin}"]' (and --allowed-headers '["*"]' if you use a key).`,
    startHint: 'Is vLLM running? Start it with `vllm serve <model>`.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    local: false,
    needsKey: true,
    corsFix: 'OpenRouter allows browsers; check the base URL and any extension or proxy that blocks the request.',
    startHint: 'Check your internet connection.',
  },
  {
    id: 'groq',
    label: 'Groq',
    baseURL: 'https://api.groq.com/openai/v1',
    local: false,
    needsKey: true,
    corsFix: 'Groq allows browsers; check the base URL and any extension or proxy that blocks the request.',
    startHint: 'Check your internet connection.',
  },
]

/** The preset a base URL most likely belongs to (by host, then by the local servers' default ports). */
export function presetForURL(baseURL: string | undefined): EndpointPreset | undefined {
  if (!baseURL) return undefined
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return undefined
  }
  const exact = ENDPOINT_PRESETS.find((preset) => new URL(preset.baseURL).host === url.host)
  if (exact) return exact
  if (!isLocalHost(url.hostname)) return undefined
  return ENDPOINT_PRESETS.find((preset) => preset.local && new URL(preset.baseURL).port === url.port)
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

export function isPrivateHost(hostname: string): boolean {
  return /^(10\.\d+|192\.168|172\.(1[6-9]|2\d|3[01]))\.\d+\.\d+$/.test(hostname) || hostname.endsWith('.local')
}

/** A host on this machine or the local network: where a local model server (Ollama, LM Studio, llama.cpp) runs. */
export function isLocalHost(hostname: string): boolean {
  return isLoopbackHost(hostname) || isPrivateHost(hostname)
}

/** Whether a provider's base URL points at a local server; false for no URL or one that does not parse. */
export function isLocalServerURL(url: string | undefined): boolean {
  if (!url) return false
  try {
    return isLocalHost(new URL(url).hostname)
  } catch {
    return false
  }
}
