import type { CodeDoc } from './_types.js';

/** Issue codes of client: each error class of the client carries one (`code`). */
export const clientCodes = {
  api_error: {
    severity: 'error',
    summary: 'The service answered with an error status object (code, message, details).',
    fix: 'Read the server’s message; 401 means a missing or wrong API key, 404 an unknown id, 400 a request the service refused.',
  },
  network_error: {
    severity: 'error',
    summary: 'The request got no answer: the connection was refused, reset or could not be made.',
    fix: 'Check IMPORTKIT_BASE_URL and the network; safe requests were already retried.',
  },
  request_timeout: {
    severity: 'error',
    summary: 'A time limit ran out: one attempt, a call’s deadline, or the wait for an import.',
    fix: 'Raise the timeout (`--timeout`, `timeoutMs`) or check the service’s health; a wait names the last status it saw.',
  },
  import_failed: {
    severity: 'error',
    summary: 'The data import ended FAILED; the service’s errorMessage says why.',
    fix: 'Fix the config or the file as the message says (`importkit check` finds most causes first) and submit again.',
  },
  response_invalid: {
    severity: 'error',
    summary: 'A success answer whose body is not JSON or lacks the resource the operation returns.',
    fix: 'Check that IMPORTKIT_BASE_URL points at the service (not a proxy page or another API).',
  },
  update_mask_invalid: {
    severity: 'error',
    summary:
      'An update the client refuses before sending: no field to update, or a field the mask may not name.',
    fix: 'Update only the fields the operation allows (UpdateRun: name, description, start_time, stop_time, is_pinned, client_key, tags, is_archived, metadata).',
  },
  upload_file_unreadable: {
    severity: 'error',
    summary:
      'The file to import cannot be read (it does not exist, is a folder, or may not be read); no import was created.',
    fix: 'Check the path (`importkit check <config> <file>` reads it the same way).',
  },
  batch_check_failed: {
    severity: 'error',
    summary:
      'A folder or archive does not fit its BatchConfig (a listed file is missing, or a file does not fit its type or config); no import was created.',
    fix: 'Run `importkit check <batch.yaml> <folder>` and fix what it reports, or list the files the folder holds.',
  },
  client_options_invalid: {
    severity: 'error',
    summary: 'The client was created without a usable base URL or API key.',
    fix: 'Set IMPORTKIT_BASE_URL to an http(s) address and IMPORTKIT_API_KEY to the key.',
  },
} as const satisfies Record<string, CodeDoc>;
