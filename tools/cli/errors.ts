/** A mistake in how a command was called or what it was given: exit 2, with the command's usage on a terminal. */
export class UsageError extends Error {}
