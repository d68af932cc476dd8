/** What other features may use of prayer. */
export { prayer } from './feature.ts';
export { type PrayerMultipliers, prayerMultipliers } from './multipliers.ts';
export { restorePrayer, sendState as sendPrayerState } from './prayer.ts';
