/** What other features may use of the bank. */
export { BANK_RANGE, nearBank } from './bank.ts';
export { bank } from './feature.ts';
