#!/usr/bin/env node
// Builds src/core/provider/models-snapshot.json, the model facts built into the app, from models.dev: either the
// api.json it publishes (`--api api.json`) or a checkout of its repository (`--repo <dir>`, the folder holding
// `providers/` and `models/`). Only the providers tabcode offers presets for are kept, and of each model only the
// facts tabcode reads; the result has api.json's shape, so the app reads it with the same parser as a fetched
// update (src/core/provider/model-facts-schema.ts).
//
//   node scripts/models-snapshot.mjs --api ~/Downloads/api.json --date 2026-12-01
//   node scripts/models-snapshot.mjs --repo ../models.dev --date 2026-07-02
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { parse as parseToml } from 'smol-toml'

/** models.dev's provider ids for the presets in src/core/provider/presets.ts. Keep in step with FACT_PROVIDERS. */
const PROVIDERS = ['openai', 'anthropic', 'google', 'groq', 'openrouter']
const MODEL_FIELDS = ['name', 'attachment', 'reasoning', 'tool_call', 'knowledge', 'release_date', 'last_updated', 'modalities', 'limit', 'cost']
const COST_FIELDS = ['input', 'output', 'cache_read', 'cache_write', 'context_over_200k', 'tiers']
const OUT = fileURLToPath(new URL('../src/core/provider/models-snapshot.json', import.meta.url))

function options(argv) {
  const read = (name) => {
    const index = argv.indexOf(name)
    return index >= 0 ? argv[index + 1] : undefined
  }
  const api = read('--api')
  const repo = read('--repo')
  const date = read('--date') ?? new Date().toISOString().slice(0, 10)
  if (!!api === !!repo) throw new Error('Give either --api <api.json> or --repo <models.dev checkout>.')
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date must be YYYY-MM-DD, not ${date}.`)
  return { api, repo, date, out: read('--out') ?? OUT }
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)

/** Objects merge key by key; anything else (arrays included) is replaced, as models.dev merges a base model. */
function mergeDeep(base, over) {
  if (!isObject(base) || !isObject(over)) return structuredClone(over)
  const merged = structuredClone(base)
  for (const [key, value] of Object.entries(over)) merged[key] = key in merged ? mergeDeep(merged[key], value) : structuredClone(value)
  return merged
}

function omitPath(target, path) {
  const parts = path.split('.')
  let current = target
  for (const part of parts.slice(0, -1)) {
    if (!isObject(current[part])) return
    current = current[part]
  }
  delete current[parts.at(-1)]
}

function tomlFiles(directory) {
  if (!existsSync(directory)) return []
  const found = []
  for (const name of readdirSync(directory)) {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) found.push(...tomlFiles(path))
    else if (name.endsWith('.toml')) found.push(path)
  }
  return found.sort()
}

const idOf = (root, path) => relative(root, path).split(sep).join('/').slice(0, -'.toml'.length)

/** What api.json would say for these providers, built from the repository's TOML files. */
function fromRepo(directory) {
  const shared = new Map(tomlFiles(join(directory, 'models')).map((path) => [idOf(join(directory, 'models'), path), parseToml(readFileSync(path, 'utf8'))]))
  const api = {}
  for (const provider of PROVIDERS) {
    const root = join(directory, 'providers', provider)
    if (!existsSync(join(root, 'provider.toml'))) throw new Error(`${root}/provider.toml is missing: is this a models.dev checkout?`)
    const info = parseToml(readFileSync(join(root, 'provider.toml'), 'utf8'))
    const models = {}
    for (const path of tomlFiles(join(root, 'models'))) {
      const id = idOf(join(root, 'models'), path)
      let model = parseToml(readFileSync(path, 'utf8'))
      if (model.base_model !== undefined) {
        const base = shared.get(model.base_model)
        if (!base) throw new Error(`${path}: unknown base_model ${model.base_model}`)
        const { base_model: _base, base_model_omit: omit = [], ...own } = model
        model = mergeDeep(base, own)
        for (const path of omit) omitPath(model, path)
      }
      models[id] = { id, ...model }
    }
    api[provider] = { id: provider, name: info.name, models }
  }
  return api
}

/** Of each model only the facts tabcode reads (never a provider's URL, package or environment variables). */
function trim(api) {
  const kept = {}
  for (const provider of PROVIDERS) {
    const source = api[provider]
    if (!isObject(source) || !isObject(source.models)) throw new Error(`The file has no models for ${provider}.`)
    const models = {}
    for (const id of Object.keys(source.models).sort()) {
      const model = source.models[id]
      const out = { id }
      for (const field of MODEL_FIELDS) if (model[field] !== undefined) out[field] = model[field]
      if (isObject(model.cost)) {
        out.cost = {}
        for (const field of COST_FIELDS) if (model.cost[field] !== undefined) out.cost[field] = model.cost[field]
      }
      models[id] = out
    }
    kept[provider] = { id: provider, name: source.name ?? provider, models }
  }
  return kept
}

const { api, repo, date, out } = options(process.argv.slice(2))
const source = api ? JSON.parse(readFileSync(api, 'utf8')) : fromRepo(repo)
const snapshot = { date, providers: trim(source) }
const text = `${JSON.stringify(snapshot)}\n`
writeFileSync(out, text)
const count = Object.values(snapshot.providers).reduce((sum, provider) => sum + Object.keys(provider.models).length, 0)
console.log(`${relative(process.cwd(), out)}: ${count} models from ${date}, ${(text.length / 1024).toFixed(0)} KB, ${(gzipSync(text).length / 1024).toFixed(1)} KB gzip`)
