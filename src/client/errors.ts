import type { Status } from '../model/index.js';
import type { Issue } from '../model/plain.js';

/** The issue codes client errors carry (documented in src/model/codes/client.ts). */
export type ClientErrorCode =
  | 'api_error'
  | 'network_error'
  | 'request_timeout'
  | 'import_failed'
  | 'response_invalid'
  | 'update_mask_invalid'
  | 'client_options_invalid'
  | 'upload_file_unreadable'
  | 'batch_check_failed';

/**
 * The one base class of every error the client throws. Messages never hold the API key:
 * it travels only in the Authorization header, and every text that could echo it (a
 * server's message, an upstream error) is passed through `redact` first.
 */
export class ClientError extends Error {
  /** The stable issue code of this kind of error (as every importkit error class has). */
  readonly code: ClientErrorCode;
  constructor(message: string, code: ClientErrorCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClientError';
    this.code = code;
  }
  /** @deprecated The same as `code`. */
  get issueCode(): ClientErrorCode {
    return this.code;
  }
}

/** The file to upload cannot be read (missing, a folder, no permission): nothing was created. */
export class FileError extends ClientError {
  /** The file as given. */
  readonly path: string;
  /** The system's error code (`ENOENT`, `EISDIR`, `EACCES`, ...). */
  readonly errno: string | undefined;
  constructor(path: string, detail: string, options: { cause?: unknown; errno?: string }) {
    super(`${path}: ${detail}; no import was created`, 'upload_file_unreadable', {
      cause: options.cause,
    });
    this.name = 'FileError';
    this.path = path;
    this.errno = options.errno;
  }
}

/**
 * A folder or archive does not fit its BatchConfig (a listed file missing, a type or a
 * config that does not match): nothing was created or sent. `issues` holds the check's
 * issues, each naming its member in `source.file`.
 */
export class BatchCheckError extends ClientError {
  /** The folder or archive as given. */
  readonly path: string;
  readonly issues: Issue[];
  constructor(path: string, issues: Issue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    const first = errors[0];
    const where = first?.source?.file ? `${first.source.file}: ` : '';
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super(
      `${path} does not fit its batch config: ${where}${first?.message ?? 'errors'}${more}; no import was created`,
      'batch_check_failed',
    );
    this.name = 'BatchCheckError';
    this.path = path;
    this.issues = issues;
  }
}

/** Where a request went: carried by every error about one. */
export interface RequestPlace {
  method: string;
  url: string;
}

/** The server answered with an error: its HTTP status and its status object. */
export class ApiError extends ClientError {
  /** HTTP status. */
  readonly status: number;
  /** The gRPC code of the status object, when the body carried one (`code` is the issue code). */
  readonly grpcCode: number | undefined;
  /** The server's message, as sent (redacted). */
  readonly serverMessage: string;
  /** The status object's details, each with its `@type`. */
  readonly details: NonNullable<Status['details']>;
  readonly method: string;
  readonly url: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(
    place: RequestPlace,
    status: number,
    body: Status | undefined,
    options: { cause?: unknown; retryAfterMs?: number | undefined; statusText?: string } = {},
  ) {
    const serverMessage = body?.message ?? options.statusText ?? '';
    const code = body?.code;
    const codeText = code === undefined ? '' : `, code ${code}`;
    super(
      `${place.method} ${place.url} failed: HTTP ${status}${codeText}${serverMessage ? `: ${serverMessage}` : ''}`,
      'api_error',
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ApiError';
    this.status = status;
    this.grpcCode = code;
    this.serverMessage = serverMessage;
    this.details = body?.details ?? [];
    this.method = place.method;
    this.url = place.url;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The request did not get an answer: refused, reset, DNS, TLS. */
export class NetworkError extends ClientError {
  readonly method: string;
  readonly url: string;
  /** The system error code when known (`ECONNREFUSED`, `ECONNRESET`, ...). */
  readonly errno: string | undefined;
  /** True when the request provably never reached the server (connection refused, DNS). */
  readonly unsent: boolean;
  constructor(
    place: RequestPlace,
    detail: string,
    options: { cause?: unknown; errno?: string | undefined; unsent: boolean },
  ) {
    super(`${place.method} ${place.url} failed: ${detail}`, 'network_error', {
      cause: options.cause,
    });
    this.name = 'NetworkError';
    this.method = place.method;
    this.url = place.url;
    this.errno = options.errno;
    this.unsent = options.unsent;
  }
}

/** A time limit ran out: one attempt's timeout, a call's deadline, or a wait's deadline. */
export class TimeoutError extends ClientError {
  readonly timeoutMs: number;
  readonly method: string | undefined;
  readonly url: string | undefined;
  /** When waiting for an import: the last status seen. */
  readonly lastStatus: string | undefined;
  /** True for one attempt's timeout (retried where safe); false for a deadline. */
  readonly attempt: boolean;
  constructor(
    message: string,
    options: {
      timeoutMs: number;
      place?: RequestPlace;
      lastStatus?: string | undefined;
      attempt?: boolean;
    },
  ) {
    super(message, 'request_timeout');
    this.name = 'TimeoutError';
    this.timeoutMs = options.timeoutMs;
    this.method = options.place?.method;
    this.url = options.place?.url;
    this.lastStatus = options.lastStatus;
    this.attempt = options.attempt ?? false;
  }
}

/** An import ended FAILED: carries the server's errorMessage and the DataImport. */
export class ImportFailedError extends ClientError {
  readonly dataImportId: string;
  readonly errorMessage: string;
  /** The DataImport as last read. */
  readonly dataImport: unknown;
  constructor(dataImportId: string, errorMessage: string, dataImport: unknown) {
    super(
      `data import ${dataImportId} failed${errorMessage ? `: ${errorMessage}` : ''}`,
      'import_failed',
    );
    this.name = 'ImportFailedError';
    this.dataImportId = dataImportId;
    this.errorMessage = errorMessage;
    this.dataImport = dataImport;
  }
}

/** A 2xx answer whose body is not JSON or not the resource the operation returns. */
export class ResponseError extends ClientError {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  constructor(place: RequestPlace, status: number, detail: string, options?: { cause?: unknown }) {
    super(
      `${place.method} ${place.url}: unexpected response (${detail})`,
      'response_invalid',
      options,
    );
    this.name = 'ResponseError';
    this.method = place.method;
    this.url = place.url;
    this.status = status;
  }
}

/** A call the client refuses before sending anything (a mask field UpdateRun does not allow). */
export class RequestError extends ClientError {
  constructor(message: string, code: ClientErrorCode = 'update_mask_invalid') {
    super(message, code);
    this.name = 'RequestError';
  }
}

/**
 * Replaces every occurrence of `secret` in `text`. Keys shorter than 4 characters are
 * left alone: they would mangle ordinary words and hide nothing worth hiding.
 */
export function redact(text: string, secret: string): string {
  if (secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}
