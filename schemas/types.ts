/** TypeScript types of the document's component schemas (generated into operation-types.d.ts by `npm run openapi`). */
import type { components } from './operation-types';

/** The type of the component schema `N`, e.g. `Schema<'OfferCreate'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];
