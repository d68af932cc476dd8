export * from './client-events.ts';
export * from './codec.ts';
export * from './server-events.ts';
