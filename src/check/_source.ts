import { type ByteSource, openForInspection } from '../inspect/index.js';

/**
 * Runs `use` on `data`: a source as given (its caller closes it), or a file's path, opened
 * for `use` and closed after it (the public checks take either).
 */
export async function throughSource<T>(
  data: string | ByteSource,
  use: (source: ByteSource) => Promise<T>,
): Promise<T> {
  if (typeof data !== 'string') return use(data);
  const source = await openForInspection(data);
  try {
    return await use(source);
  } finally {
    await source.close();
  }
}
