/** The batch fixture's inferred config, and a copy of it made wrong, for the batch checks. */
import type { BatchConfig } from '../../src/model/batch.js';

export const campaignExpected = (
  await import('../../fixtures/batch/campaign.expected.json', { with: { type: 'json' } })
).default as { document: { batchConfig: BatchConfig } };

/** The inferred batch with a misspelt path, a wrong type and a column past the last. */
export function wrongCampaignBatch(): BatchConfig {
  const b = structuredClone(campaignExpected.document.batchConfig);
  const files = b.fileConfigs ?? {};
  files['runs/day 1/run-l.csv'] = files['runs/day 1/run-1.csv'] as never;
  delete files['runs/day 1/run-1.csv'];
  files['tdms/bench.tdms'] = { type: 'DATA_TYPE_KEY_CSV' };
  const own = files['other-layout.csv']?.csvConfig;
  if (own?.dataColumns)
    own.dataColumns['9'] = { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
  return b;
}
