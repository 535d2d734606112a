/** Registers `ts-hooks.mjs` (see there): passed to test processes with `--import`. */
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
