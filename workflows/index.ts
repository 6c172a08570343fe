/** Every workflow type the offerops worker runs. Deterministic code only. */
export { dispatchEvent, outboxSweep } from './events';
export { retentionSweep } from './retention';
