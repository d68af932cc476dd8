/** What other features and adapters may use of resource nodes. */
export { resources } from './feature.ts';
export { RESOURCES, type ResourceData } from './state.ts';
