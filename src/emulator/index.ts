/**
 * A local emulator of the platform's HTTP interface, for tests, demos and pipelines' own
 * CI: `startEmulator(options)` listens and answers like the service; `importkit serve`
 * runs it from the command line.
 */
export { type FaultKind, type FaultRule, type FaultSpec, parseFaults } from './faults.js';
export { seededIds } from './seed.js';
export { type EmulatorSeed, SeedError } from './seed-file.js';
export {
  type Emulator,
  type EmulatorOptions,
  type KeyOrganization as EmulatorOrganization,
  startEmulator,
} from './server.js';
export { StoreError } from './store-state.js';
