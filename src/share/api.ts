// The share DTOs are core's (core/dto/share.ts): the UI and the protocol use them without importing share/.
export type * from '../core/dto/share'
