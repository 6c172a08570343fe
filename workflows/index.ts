/** Every workflow type the offerops worker runs. Deterministic code only. */
export { retentionSweep } from './retention';
