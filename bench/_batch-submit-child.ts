/**
 * The client side of the submit bench, run in a process of its own: `importFile` of the
 * folder (the batch check, then the folder streamed as a deflated zip). It loads the client
 * alone, as a program that submits would, so its peak RSS is the client's; it prints its
 * times and peak RSS as JSON.
 *
 *   node dist/bench/_batch-submit-child.js <folder> <config.json> <url>
 */
import { readFileSync } from 'node:fs';
import { createClient } from '../src/client/index.js';
import type { ImportDocument } from '../src/model/document.js';

const [folder, config, url] = process.argv.slice(2) as [string, string, string];
const document = JSON.parse(readFileSync(config, 'utf8')) as ImportDocument;
const client = createClient({ baseUrl: url, apiKey: 'bench-key' });
const start = performance.now();
let created = start;
let checkRss = 0;
const done = await client.importFile(folder, document, {
  onCreated: () => {
    created = performance.now();
    checkRss = process.resourceUsage().maxRSS * 1024;
  },
});
const end = performance.now();
const rss = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    checkMs: created - start,
    uploadMs: end - created,
    checkRss,
    rss,
    id: done.dataImportId,
  }),
);
