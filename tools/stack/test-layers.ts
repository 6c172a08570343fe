/**
 * Which folders of test/ need which stack. The files of NO_STACK_DIRS need none — pure code, the contract, saved
 * histories replayed without a server — and `npm run test:unit` runs exactly them, with the stack's settings taken out
 * of their environment (a file there that needs a stack fails); the lint forbids their test files to reach the stack
 * helpers (.dependency-cruiser.cjs). The files of OWN_STACK_DIRS start stacks of their own. Every other folder runs
 * on the shared stack `npm test` starts.
 */
export const NO_STACK_DIRS = ['unit', 'contract', 'replay'];
export const OWN_STACK_DIRS = ['stack', 'faults'];
/** The stack's settings `npm test` hands its files: a file that needs no stack runs without them. */
export const STACK_SETTINGS = ['MONGODB_URI', 'MONGODB_DB', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE'];
