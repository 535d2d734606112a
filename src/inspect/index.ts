/**
 * Inspect: a file → a neutral profile. The one entry of this stage: the other stages (infer,
 * check, the emulator) import from here only. The HDF5 library (wasm) loads only inside the
 * worker that reads an HDF5 file; papaparse and hyparquet are plain JS.
 */

export { dataFileProblem, emptyFileIssue, fileProblem, fileProblemSync } from '../files/index.js';
export type {
  Container,
  ContainerKind,
  ContainerMember,
  MemberVisit,
} from './archive/container.js';
export {
  archiveError,
  containerKind,
  leftOutByContent,
  leftOutByName,
  openContainer,
} from './archive/container.js';
export type { UnpackOptions } from './archive/unpack.js';
export {
  hideRoot,
  hideRootInIssues,
  memberTarget,
  UnpackError,
  unpackMembers,
  withPrivateFolder,
} from './archive/unpack.js';
export type { ByteSource, Place } from './byte-source.js';
export {
  countingSource,
  memorySource,
  openFileSource,
  openForInspection,
  refuseEmptyFile,
  throughSource,
  wholeFileOf,
} from './byte-source.js';
export type {
  Ch10Channel,
  Ch10ChannelPackets,
  Ch10Damage,
  Ch10InspectOptions,
  Ch10Packets,
  Ch10Profile,
  Ch10Time,
} from './ch10.js';
export { ch10DataChannels, inspectCh10, inspectCh10Source, parseTmats } from './ch10.js';
export type { NumberStyle, TextShape } from './csv/cells.js';
export { classifyCell, numberStyleOf, textShape } from './csv/cells.js';
export {
  decodeText,
  detectDelimiter,
  detectLineEnding,
  encodingProblem,
  newlineOf,
} from './csv/dialect.js';
export { refuseUnreadableCsv } from './csv/head.js';
export type { CsvRecord } from './csv/scan.js';
export { fieldText, scanCsvFile } from './csv/scan.js';
export type {
  CellPlace,
  CsvDialect,
  CsvFieldProfile,
  CsvHeadRows,
  CsvInspectOptions,
  CsvProfile,
  CsvRowKind,
} from './csv.js';
export { inspectCsv, inspectCsvSource } from './csv.js';
export type { Detection } from './detect.js';
export { detectFormat } from './detect.js';
export type { InspectFormat, InspectOptions, Magic } from './formats.js';
export { inspectFormat, inspectFormats, registerInspectFormat } from './formats.js';
export { gunzipChunks, gunzipHead, isGzip } from './gzip-source.js';
export type {
  Hdf5Attribute,
  Hdf5Dataset,
  Hdf5InspectOptions,
  Hdf5Profile,
  Hdf5Type,
  RowsRequest,
  RowValues,
  SliceRequest,
  SliceValues,
} from './hdf5.js';
export {
  inspectHdf5,
  MAX_TWO_D_COLUMNS,
  readHdf5Rows,
  readHdf5Slice,
  typeName,
} from './hdf5.js';
export {
  detectFileFormat,
  inspectFile,
  unknownFormatError,
} from './inspect-file.js';
export type {
  ColumnHead,
  ColumnHeadMissing,
  ParquetFieldProfile,
  ParquetProfile,
} from './parquet.js';
export { inspectParquet, inspectParquetSource, readColumnHead } from './parquet.js';
export type { BaseProfile, FieldProfile, FileFormat } from './profile.js';
export { InspectError } from './profile.js';
export type {
  DaqmxIndex,
  DaqmxScaler,
  TdmsChannelProfile,
  TdmsGroupProfile,
  TdmsInspectOptions,
  TdmsProfile,
  TdmsProperty,
  TdmsTypedValues,
  TdmsUnread,
  TdmsValue,
  TdmsValueOptions,
  TdmsValueRequest,
  TdmsValues,
  TdmsValuesAt,
  TdmsValuesHandler,
} from './tdms.js';
export {
  inspectTdms,
  inspectTdmsSource,
  joinTdmsPath,
  readTdmsValues,
  splitTdmsPath,
  TDMS_TYPE_CODES,
  tdmsProperty,
  tdmsTimestampOf,
  tdmsTimestampText,
} from './tdms.js';
export type {
  UlogDataHandlers,
  UlogFieldDef,
  UlogFieldProfile,
  UlogFlags,
  UlogFormat,
  UlogGpsFix,
  UlogInfo,
  UlogInspectOptions,
  UlogLeaf,
  UlogMessageLayout,
  UlogMultiInfo,
  UlogParameter,
  UlogProfile,
  UlogScalar,
  UlogSizes,
  UlogSubscription,
  UlogValue,
} from './ulog.js';
export {
  inspectUlog,
  inspectUlogSource,
  readUlogData,
  ulogBoundary,
  ulogChannelMessages,
  ulogFieldLeaf,
  ulogFieldValue,
  ulogLayouts,
} from './ulog.js';
