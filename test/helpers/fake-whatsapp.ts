/**
 * The WhatsApp gateway stand-ins (tools/cli/whatsapp-gateway.ts, which
 * `offerops dev gateway --flavor` runs too) with what the tests share: an API
 * key, and a channel configuration that reaches the fake.
 */
import type { ChannelConfig } from '../../domain/channels/store';
import { Flavor, startWhatsAppGateway, WhatsAppGatewayFake } from '../../tools/cli/whatsapp-gateway';

export { FLAVORS } from '../../tools/cli/whatsapp-gateway';
export type { Flavor, WhatsAppGatewayFake } from '../../tools/cli/whatsapp-gateway';

export const FAKE_API_KEY = 'wa-gateway-key-s3cr3t';

export const startFakeWhatsApp = (flavor: Flavor): Promise<WhatsAppGatewayFake> => startWhatsAppGateway({ flavor, apiKey: FAKE_API_KEY });

/** What a connector of the fake's flavor needs to reach it. */
export const fakeChannel = (fake: WhatsAppGatewayFake, over: Partial<ChannelConfig> = {}): ChannelConfig => ({
  id: 'chn_wa',
  type: fake.flavor,
  url: fake.url,
  token: FAKE_API_KEY,
  instance: fake.session,
  minIntervalMs: 0,
  ...over,
});
