/** The platform's shapes as zod schemas: the one definition of each; types are inferred. */
export * from './batch.js';
export * from './ch10.js';
export * from './channel.js';
export * from './codes/index.js';
export * from './csv.js';
export * from './document.js';
export * from './enums.js';
export * from './hdf5.js';
export * from './issue.js';
export * from './json-schema.js';
export * from './parquet.js';
export * from './plain.js';
export * from './resources.js';
export * from './scalars.js';
export * from './schema-files.js';
export * from './tdms.js';
export * from './ulog.js';
