// The port's types are core's (core/workspace.ts): the protocol and the UI name them without importing a backend.
export * from '../core/workspace'
