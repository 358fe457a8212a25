/**
 * The sample chart of accounts and tax codes of a new sandbox project (CONTRACT §10: at least 8
 * accounts, all active and postable; at least 1 tax code): a small, realistic Danish chart.
 */
export const SANDBOX_ACCOUNTS: ReadonlyArray<{ number: string; name: string }> = [
  { number: '1000', name: 'Salg af varer' },
  { number: '1100', name: 'Salg af ydelser' },
  { number: '5000', name: 'Varekøb' },
  { number: '7000', name: 'Husleje' },
  { number: '7500', name: 'Kontorartikler' },
  { number: '12000', name: 'Bank' },
  { number: '13000', name: 'Debitorer' },
  { number: '14500', name: 'Udgående moms' },
  { number: '14600', name: 'Indgående moms' },
  { number: '15000', name: 'Kreditorer' },
];

export const SANDBOX_TAX_CODES: ReadonlyArray<{ code: string; rateBasisPoints: number }> = [
  { code: 'U25', rateBasisPoints: 2500 },
  { code: 'I25', rateBasisPoints: 2500 },
];
