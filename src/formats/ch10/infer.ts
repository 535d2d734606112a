/**
 * A CH10 profile → a draft Ch10Config. The recording describes its own channels (the TMATS
 * record), so the draft says where the data goes (asset, run) and whether to scale values:
 * true when the TMATS record defines data conversions (`C-x\DCN`), false when it defines
 * none (there is nothing to scale by).
 */
import { basename, extname } from 'node:path';
import type { Draft, Evidence, InferOptions } from '../../infer/shared.js';
import type { Ch10Config } from '../../model/index.js';
import { type Ch10Profile, inspectCh10 } from './inspect.js';

const P = '/ch10Config';

/** Inspects a CH10 file and infers its draft (not yet validated: `inferConfig` does that). */
export async function inferCh10(path: string, options: InferOptions = {}): Promise<Draft> {
  return draftFromCh10Profile(await inspectCh10(path), options);
}

export function draftFromCh10Profile(profile: Ch10Profile, options: InferOptions = {}): Draft {
  const file = profile.file.path;
  const conversions = profile.tmats.conversions;
  const config: Ch10Config = {
    assetName: options.assetName ?? basename(file, extname(file)),
    ...(options.runName ? { runName: options.runName } : {}),
    scaleValues: conversions > 0,
  };
  const kinds = [...new Set(profile.channels.map((c) => c.dataType).filter((t) => t !== ''))];
  const evidence: Evidence[] = [
    {
      path: `${P}/assetName`,
      choice: config.assetName ?? '',
      reason: options.assetName ? 'given as an option' : "default: the file's base name",
      confidence: options.assetName ? 'high' : 'low',
      ...(profile.tmats.programName
        ? { alternatives: [`${profile.tmats.programName}: the TMATS program name (G\\PN)`] }
        : {}),
    },
    {
      path: `${P}/scaleValues`,
      choice: String(config.scaleValues),
      reason:
        conversions > 0
          ? `the TMATS record defines ${conversions} data conversion${conversions === 1 ? '' : 's'} (C-x\\DCN) for ${profile.channels.length} channels (${kinds.join(', ') || 'no types'})`
          : `the TMATS record defines no data conversions: there is nothing to scale the ${profile.channels.length} channels by`,
      confidence: 'medium',
    },
  ];
  return {
    document: { ch10Config: config },
    kind: 'ch10',
    evidence,
    issues: [...profile.issues],
  };
}
