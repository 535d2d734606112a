/**
 * The package's own documentation, read where the package is installed: the agents'
 * guide (`docs/agents.md`, printed by `importkit mcp --print-skill`), the config pages and
 * the issue-code table, served as resources. Found by walking up from this module to the
 * package.json named importkit (dist/src/mcp/ when installed, src/mcp/ under the tests).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined | null = null;

/** The package's folder, or undefined when this module is not inside it (a bundle). */
export function packageRoot(): string | undefined {
  if (root !== null) return root;
  root = undefined;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
      if (name === 'importkit') {
        root = dir;
        break;
      }
    }
    if (dirname(dir) === dir) break;
  }
  return root;
}

/** A documentation page's text by its path under docs/, or undefined when it is not there. */
export function docText(page: string): string | undefined {
  const at = packageRoot();
  if (at === undefined || page.split('/').includes('..')) return undefined;
  const file = join(at, 'docs', page);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** The config pages under docs/configs/, by file name (`csv.md`). */
export function configPages(): string[] {
  const at = packageRoot();
  if (at === undefined) return [];
  try {
    return readdirSync(join(at, 'docs', 'configs'))
      .filter((f) => f.endsWith('.md'))
      .sort();
  } catch {
    return [];
  }
}
