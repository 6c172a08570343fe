import { HttpError } from '../errors';

/**
 * The handler of an operation whose issue has not landed: 501 after the
 * request passed authentication, scope and validation. docs/README.md lists them.
 */
export const notImplemented = (): Promise<never> => {
  return Promise.reject(new HttpError('not_implemented', 'This operation is declared in the contract but not built yet.'));
};
