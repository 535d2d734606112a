/**
 * `importkit/emulator`: a local server speaking the platform's interface (tests, demos,
 * pipelines' CI). Node only. Left out on purpose: the emulator's seed helpers.
 */

export type {
  Emulator,
  EmulatorOptions,
  EmulatorOrganization,
  FaultKind,
  FaultRule,
  FaultSpec,
} from './emulator/index.js';
export { startEmulator } from './emulator/index.js';
