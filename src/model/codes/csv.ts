import type { CodeDoc } from './_types.js';

/** Issue codes of CSV inspection and inference. */
export const csvCodes = {
  csv_empty: {
    severity: 'error',
    summary:
      'The CSV file is not empty but holds only blank lines (or its gzip data is empty): there are no rows to import. An empty file (0 bytes) is `file_empty`.',
    fix: 'Check that the export finished and that this is the file you meant.',
  },
  csv_not_text: {
    severity: 'error',
    summary: 'The file is not text (NUL bytes or many control bytes): not a CSV file.',
    fix: 'Give the CSV file itself; if it is compressed, give it a `.gz` name or decompress it.',
  },
  csv_encoding_utf16: {
    severity: 'error',
    summary: 'The file is encoded as UTF-16; the platform reads UTF-8 CSV files.',
    fix: 'Re-save the file as UTF-8 (for example `iconv -f UTF-16 -t UTF-8 in.csv > out.csv`).',
  },
  csv_encoding_not_utf8: {
    severity: 'warning',
    summary: 'Some bytes are not valid UTF-8 (perhaps Latin-1 or Windows-1252 text).',
    fix: 'Re-save the file as UTF-8 so names and text values import as written.',
  },
  csv_line_too_long: {
    severity: 'error',
    summary: 'No line end was found in the first 4 MiB: one huge line is not a table.',
    fix: 'Check the line endings and that this is a CSV file; give the delimiter and rows explicitly.',
  },
  csv_gzip_corrupt: {
    severity: 'error',
    summary: 'The gzip data is corrupt or truncated.',
    fix: 'Check the file with `gzip -t` and re-compress it, or give the uncompressed file.',
  },
  csv_gzip_head_only: {
    severity: 'info',
    summary:
      'A gzip file cannot be read from the middle: only its head was inspected, no later slices.',
    fix: 'Pass --full to read the whole file when the head may not be representative.',
  },
  csv_no_data_rows: {
    severity: 'error',
    summary:
      'The file has a header (and perhaps units) but no data rows: the import would hold nothing.',
    fix: 'Check that the export wrote its rows; the draft still names the columns.',
  },
  csv_ragged_rows: {
    severity: 'warning',
    summary: 'Some rows have a different number of fields than the table.',
    fix: 'Check the delimiter and quoting of the rows named; pass --delimiter if it was guessed wrong.',
  },
  csv_mixed_line_endings: {
    severity: 'info',
    summary: 'The file mixes line endings (CRLF and LF).',
    fix: 'Usually harmless; normalise the line endings if rows import wrongly.',
  },
  csv_delimiter_uncertain: {
    severity: 'warning',
    summary: 'More than one delimiter splits the rows consistently; the choice is a guess.',
    fix: 'Pass --delimiter to say which one the file uses.',
  },
  csv_delimiter_not_comma: {
    severity: 'warning',
    summary:
      'The file’s delimiter is not a comma, and a CsvConfig has no field to say which delimiter it uses.',
    fix: 'Check that the platform reads this delimiter, or convert the file to commas before importing.',
  },
  csv_header_uncertain: {
    severity: 'warning',
    summary: 'Whether the first row is a header could not be told from the values.',
    fix: 'Pass --header-row N (0 for no header) to say where the header is.',
  },
  csv_type_widened: {
    severity: 'warning',
    summary:
      'A column looked like one type in the head of the file, but a later part holds values of a wider type.',
    fix: 'The draft uses the wider type; check the value named, or pass --full to scan every row.',
  },
  csv_slice_skipped: {
    severity: 'info',
    summary: 'A slice from the middle or end of the file could not be aligned to whole rows.',
    fix: 'Pass --full to read every row when the file has many multi-line quoted fields.',
  },
  csv_embedded_config: {
    severity: 'info',
    summary:
      'The first rows hold the platform’s embedded config (JSON objects in the cells): the draft uses it.',
    fix: 'Nothing to fix; set useEmbeddedConfig to false and give the columns to override it.',
  },
  csv_duplicate_column_name: {
    severity: 'warning',
    summary: 'Two columns have the same header name: channels would share a name.',
    fix: 'Rename one column in the draft (dataColumns.<n>.name) or in the file.',
  },
  csv_column_empty: {
    severity: 'warning',
    summary: 'A column has no values in what was read; its type cannot be told.',
    fix: 'The draft types it STRING; set dataType yourself, or pass --full to scan every row.',
  },
  csv_header_row_out_of_range: {
    severity: 'error',
    summary: 'The header row given is beyond the rows of the file.',
    fix: 'Give a header row that exists (1 is the first row; 0 means no header).',
  },
  csv_too_many_columns: {
    severity: 'error',
    summary:
      'A row has more fields than a table can have (100,000): not a table the platform reads.',
    fix: 'Check the delimiter (pass --delimiter) and that this is a CSV file of rows.',
  },
  csv_last_row_incomplete: {
    severity: 'warning',
    summary:
      'The last row has fewer fields than the table and no line end: the file may still be being written, or was cut.',
    fix: 'Wait for the export to finish (or copy the file again), then check it once more.',
  },
  csv_header_repeated: {
    severity: 'warning',
    summary:
      'The header line appears again inside the data (two logs concatenated): the import fails on that line.',
    fix: 'Remove the repeated header lines (`importkit normalize` does), or import each log on its own.',
  },
  csv_value_stray: {
    severity: 'error',
    summary:
      'A few cells of a column of numbers, booleans or times hold other text: the column keeps its type and the import fails on those rows.',
    fix: 'Fix or empty the cells named, or set the channel to STRING if the text is meant.',
  },
  csv_trailing_empty_columns: {
    severity: 'info',
    summary:
      'The last columns have no name and no values (a spreadsheet export’s trailing delimiters): the draft leaves them out.',
    fix: 'Nothing to fix; `importkit normalize` drops them from the file.',
  },
  csv_decimal_comma: {
    severity: 'error',
    summary:
      'A column holds numbers written with a decimal comma (`20,1`); the platform reads `20.1`.',
    fix: 'Convert the file with `importkit normalize in.csv -o out.csv` (commas to dots, delimiter to `,`).',
  },
  csv_thousands_separator: {
    severity: 'error',
    summary:
      'A column holds numbers with thousands separators (`1,234.5`); the platform reads plain digits.',
    fix: 'Convert the file with `importkit normalize in.csv -o out.csv` (separators dropped).',
  },
  csv_time_split_columns: {
    severity: 'error',
    summary:
      'Date and time of day are in two columns; the platform reads one time column holding both.',
    fix: 'Join them with `importkit normalize in.csv -o out.csv` (add `--timezone Area/City` for local times).',
  },
  csv_time_zone_name: {
    severity: 'error',
    summary:
      'The times carry a zone name or abbreviation (`CET`, `Europe/Berlin`); the platform reads offsets (`+01:00`, `Z`) only.',
    fix: 'Convert the times with `importkit normalize in.csv -o out.csv` (to RFC 3339 with an offset).',
  },
  csv_time_ampm: {
    severity: 'error',
    summary: 'The times are written with AM/PM; the platform reads 24-hour times.',
    fix: 'Convert the times with `importkit normalize in.csv -o out.csv`, or re-export with 24-hour times.',
  },
  csv_time_empty: {
    severity: 'error',
    summary: 'Some cells of the time column are empty; the import fails on those rows.',
    fix: 'Fill in or remove the rows named, or choose another time column.',
  },
  csv_time_unparsable: {
    severity: 'error',
    summary: 'A few cells of the time column are not times; the import fails on those rows.',
    fix: 'Fix or remove the rows named.',
  },
} as const satisfies Record<string, CodeDoc>;
