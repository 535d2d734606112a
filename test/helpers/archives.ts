/** Archives the batch tests write in memory. */
import tar from 'tar-stream';

/** A tar (ustar, PAX for long names) of the given members, in order. */
export async function tarOf(files: ReadonlyArray<[string, Uint8Array]>): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const c of pack) chunks.push(c as Buffer);
  })();
  for (const [name, data] of files) pack.entry({ name, size: data.byteLength }, Buffer.from(data));
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}
