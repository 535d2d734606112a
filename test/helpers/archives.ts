/** Archives the batch tests write in memory: the fixtures' tar writer. */
export { tarOf } from '../../scripts/fixtures/tar-writer.js';
