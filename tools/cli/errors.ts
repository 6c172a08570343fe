/**
 * A mistake in how a command was called or what it was given: exit 2. `hint`
 * (the usage, or where to look) is printed under the message on a terminal.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
