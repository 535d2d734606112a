/**
 * A module hook that writes the URL of every module loaded, one per line, to the file named
 * by `IMPORTKIT_LOAD_TRACE`. `test/architecture/lazy-formats.test.ts` loads a stage under it
 * (`--import` of a `register()` call) to see which modules a command really loads.
 */
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  const file = process.env.IMPORTKIT_LOAD_TRACE;
  if (file) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
