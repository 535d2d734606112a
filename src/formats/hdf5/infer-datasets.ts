/**
 * What HDF5 inference reads of a dataset beside its values: its attributes (names, units,
 * descriptions, column names), its path as a channel name (as the platform's CLI names
 * it), and whether its type can hold time.
 */

import type { Hdf5Attribute, Hdf5Dataset, Hdf5Type } from './inspect.js';

export function isNumeric(t: Hdf5Type): boolean {
  return t.class === 'integer' || t.class === 'float';
}

/** Types a time dataset, column or member can have. */
export function canHoldTime(t: Hdf5Type): boolean {
  return isNumeric(t) || t.class === 'string';
}

const NAME_ATTRIBUTES = ['Name', 'name', 'Title', 'Sensor', 'Channel'];

export const UNIT_ATTRIBUTES = ['Unit', 'unit', 'Units', 'units'];

export const DESCRIPTION_ATTRIBUTES = ['Description', 'description', 'long_name'];

export const COLUMN_NAME_ATTRIBUTES = ['columns', 'column_names', 'fields', 'field_names'];

/** Time dataset names (case-insensitive), in order of preference. */
export const TIME_NAMES = ['time', 'timestamp', 'timestamps', 'ts', 't'];

export function attribute(
  ds: Hdf5Dataset,
  names: string[],
): { name: string; value: unknown } | undefined {
  for (const n of names) {
    const a = ds.attributes.find((x) => x.name === n);
    if (a && a.value !== undefined && a.value !== null) return { name: n, value: a.value };
  }
  return undefined;
}

export function stringAttribute(
  ds: Hdf5Dataset,
  names: string[],
): { name: string; value: string } | undefined {
  for (const n of names) {
    const a: Hdf5Attribute | undefined = ds.attributes.find((x) => x.name === n);
    const v = a?.value;
    if (typeof v === 'string' && v.trim() !== '') return { name: n, value: v.trim() };
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string' && v[0].trim() !== '') {
      return { name: n, value: v[0].trim() };
    }
  }
  return undefined;
}

export function stringList(v: unknown, length: number): string[] | undefined {
  if (Array.isArray(v) && v.length === length && v.every((x) => typeof x === 'string')) {
    return v as string[];
  }
  return undefined;
}

/** `/a/b/c` → `a.b.c`. */
export function pathChannelName(path: string): string {
  return path.replace(/^\/+/, '').replace(/\//g, '.');
}

export function absolutePath(p: string): string {
  return `/${p.trim().replace(/^\/+/, '').replace(/\/+$/, '')}`;
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Orders paths as a depth-first walk in name order (`/a`, `/a/x`, `/a.b`). */
export function comparePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i] ?? '';
    const y = sb[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return sa.length - sb.length;
}

/** Datasets so named take their group's name (ONE_D), as the platform's CLI names them. */
const VALUE_NAMES = ['value', 'values'];

export interface BaseName {
  name: string;
  reason: string;
  alternatives: string[];
}

/**
 * A dataset's channel name as the platform's own CLI gives it (`import hdf5`): the dataset
 * path with `/` as `.` (`/a/b` → `a.b`); a ONE_D dataset named value or values (any case)
 * below the root takes its group's path. A draft that names channels otherwise makes a
 * second set of channels on an asset the CLI already fed. A name attribute (Name, Title,
 * Sensor, Channel: the platform's Python client reads them, its CLI does not) is offered
 * in the evidence, never used on its own.
 */
export function baseName(ds: Hdf5Dataset, oneD = false): BaseName {
  const group = parentOf(ds.path);
  const valueLeaf = oneD && group !== '/' && VALUE_NAMES.includes(ds.name.toLowerCase());
  const name = pathChannelName(valueLeaf ? group : ds.path);
  const reason = valueLeaf
    ? `the group path ${group} with / as . (the dataset is named ${ds.name}), as the platform's CLI names it`
    : `the dataset path ${ds.path} with / as ., as the platform's CLI names it`;
  const attr = stringAttribute(ds, NAME_ATTRIBUTES);
  const alternatives =
    attr && attr.value !== name
      ? [
          `${attr.value}: attribute ${attr.name} of ${ds.path} (as the platform's Python client names it)`,
        ]
      : [];
  return { name, reason, alternatives };
}
