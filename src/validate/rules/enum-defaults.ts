import { type Issue, issue } from '../../model/plain.js';
import { configsOf, join, list, obj, type Rule } from './_walk.js';

/**
 * UNSPECIFIED values that the platform accepts but that do not say what they do. The
 * reference marks `TDMS_FALLBACK_METHOD_UNSPECIFIED` and
 * `PARQUET_COMPLEX_TYPES_IMPORT_MODE_UNSPECIFIED` deprecated with no meaning given
 * (`deprecated_enum_value`); `ULOG_PARSE_ERROR_POLICY_UNSPECIFIED` is treated as
 * FAIL_ON_ERROR and `TDMS_COMPLEX_COMPONENT_UNSPECIFIED` as the real part
 * (`unspecified_means_default`). Both are warnings naming the explicit value to write.
 * UNSPECIFIED data types, time formats and batch file types stay errors (other rules).
 */
export const enumDefaultRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    const cfg = c.config;
    switch (c.kind) {
      case 'tdms':
        if (cfg.fallbackMethod === 'TDMS_FALLBACK_METHOD_UNSPECIFIED') {
          out.push(
            issue(
              'deprecated_enum_value',
              join(c.path, 'fallbackMethod'),
              'TDMS_FALLBACK_METHOD_UNSPECIFIED is deprecated: what the platform does on a damaged file is not defined.',
              'Write TDMS_FALLBACK_METHOD_FAIL_ON_ERROR (stop at an error) or TDMS_FALLBACK_METHOD_IGNORE_ERROR, or remove fallbackMethod.',
            ),
          );
        }
        list(cfg.data).forEach((d, i) => {
          if (obj(d)?.complexComponent !== 'TDMS_COMPLEX_COMPONENT_UNSPECIFIED') return;
          out.push(
            issue(
              'unspecified_means_default',
              join(c.path, 'data', i, 'complexComponent'),
              'TDMS_COMPLEX_COMPONENT_UNSPECIFIED imports the real part of complex values.',
              'Write TDMS_COMPLEX_COMPONENT_REAL (or TDMS_COMPLEX_COMPONENT_IMAGINARY for the imaginary part).',
            ),
          );
        });
        break;
      case 'parquet':
        if (cfg.complexTypesImportMode === 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_UNSPECIFIED') {
          out.push(
            issue(
              'deprecated_enum_value',
              join(c.path, 'complexTypesImportMode'),
              'PARQUET_COMPLEX_TYPES_IMPORT_MODE_UNSPECIFIED is deprecated: how complex columns are imported is not defined.',
              'Write PARQUET_COMPLEX_TYPES_IMPORT_MODE_IGNORE, _BOTH, _STRING or _BYTES (for example PARQUET_COMPLEX_TYPES_IMPORT_MODE_IGNORE), or remove complexTypesImportMode.',
            ),
          );
        }
        break;
      case 'ulog':
        if (cfg.parseErrorPolicy === 'ULOG_PARSE_ERROR_POLICY_UNSPECIFIED') {
          out.push(
            issue(
              'unspecified_means_default',
              join(c.path, 'parseErrorPolicy'),
              'ULOG_PARSE_ERROR_POLICY_UNSPECIFIED is treated as FAIL_ON_ERROR.',
              'Write ULOG_PARSE_ERROR_POLICY_FAIL_ON_ERROR (or ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR to skip damaged parts).',
            ),
          );
        }
        break;
      default:
        break;
    }
  }
  return out;
};
