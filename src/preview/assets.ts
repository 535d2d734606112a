/**
 * uPlot (MIT, by Leon Sorokin: a ~50 KB canvas time-series chart library with no
 * dependencies), read from its package once per process and inlined into every page, with
 * its licence notice (the MIT licence asks for it in every copy).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let cached: { script: string; style: string } | undefined;

/** uPlot's minified browser build and its stylesheet, safe inside script/style elements. */
export function uplotAssets(): { script: string; style: string } {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const read = (name: string) => readFileSync(require.resolve(`uplot/${name}`), 'utf8');
  const notice = `/*! uPlot licence:\n${read('LICENSE').replaceAll('*/', '* /')}*/\n`;
  cached = {
    script: (notice + read('dist/uPlot.iife.min.js')).replace(/<\/script/gi, '<\\/script'),
    style: read('dist/uPlot.min.css').replace(/<\/style/gi, '<\\/style'),
  };
  return cached;
}
