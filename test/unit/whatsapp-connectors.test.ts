/**
 * The Evolution API and WAHA connectors against stand-ins of each gateway
 * (real HTTP on loopback, built from their documented shapes): what each send
 * puts on the wire, what it makes of every answer, and the operator's side
 * (webhook, session state, groups). No stack: the connectors touch no database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { evolutionConnector } from '../../domain/channels/connectors/evolution';
import { gatewayFor } from '../../domain/channels/connectors/index';
import { ConnectorError } from '../../domain/channels/connectors/types';
import { wahaConnector } from '../../domain/channels/connectors/waha';
import { fakeChannel, FAKE_API_KEY, FLAVORS, startFakeWhatsApp, WhatsAppGatewayFake } from '../helpers/fake-whatsapp';

async function failure(p: Promise<unknown>): Promise<ConnectorError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ConnectorError, String(err));
    return err;
  }
  assert.fail('expected a failure');
}

for (const flavor of FLAVORS) {
  describe(`${flavor} connector`, () => {
    let fake: WhatsAppGatewayFake;
    before(async () => {
      fake = await startFakeWhatsApp(flavor);
    });
    after(() => fake.close());
    const connector = (over = {}, timeoutMs = 2000) =>
      (flavor === 'evolution' ? evolutionConnector : wahaConnector)(fakeChannel(fake, over), timeoutMs);
    const GROUP = '120363000000000001@g.us';

    test('text goes with a link preview when it holds a link; the answer gives the message id', async () => {
      const a = await connector().send({ to: GROUP, text: 'Oferta: https://shop.example/x' }, 'pub_1:grp_1');
      const b = await connector().send({ to: GROUP, text: 'Sem link' }, 'pub_2:grp_1');
      const [first, second] = fake.sent.slice(-2);
      assert.deepEqual(
        [first, second].map((m) => [m!.to, m!.text, m!.imageUrl, m!.linkPreview]),
        [
          [GROUP, 'Oferta: https://shop.example/x', null, true],
          [GROUP, 'Sem link', null, false],
        ],
      );
      // WhatsApp's own id, without the chat WAHA's serialized ids name.
      assert.deepEqual([a.providerMessageId, b.providerMessageId], [first!.id, second!.id]);
    });

    test('an image goes as the image with the message as its caption', async () => {
      await connector().send({ to: GROUP, text: 'Air Fryer por R$ 299', imageUrl: 'https://img.example/a.png' }, 'pub_3:grp_1');
      const m = fake.sent.at(-1)!;
      assert.deepEqual([m.text, m.imageUrl], ['Air Fryer por R$ 299', 'https://img.example/a.png']);
    });

    test('429 with and without Retry-After, 5xx and a timeout are transient; no key or address in the message', async () => {
      fake.failNext(1, 429, '2');
      const paced = await failure(connector().send({ to: GROUP, text: 'x' }, 'k1'));
      assert.deepEqual([paced.permanent, paced.status, paced.retryAfterMs, paced.disconnected], [false, 429, 2000, false]);
      fake.failNext(1, 429);
      const bare = await failure(connector().send({ to: GROUP, text: 'x' }, 'k2'));
      assert.deepEqual([bare.permanent, bare.retryAfterMs], [false, undefined]);
      fake.failNext(1, 502);
      const down = await failure(connector().send({ to: GROUP, text: 'x' }, 'k3'));
      assert.deepEqual([down.permanent, down.status], [false, 502]);
      fake.delayMs = 300;
      try {
        const slow = await failure(connector({}, 100).send({ to: GROUP, text: 'x' }, 'k4'));
        assert.deepEqual([slow.permanent, slow.message], [false, 'the gateway did not answer in time: timed out after 0.1 s']);
      } finally {
        fake.delayMs = 0;
      }
      for (const e of [paced, bare, down]) {
        assert.ok(!e.message.includes(GROUP) && !e.message.includes(FAKE_API_KEY), e.message);
      }
    });

    test('a session that is not connected is transient and says so; it sends nothing', async () => {
      const before = fake.sent.length;
      fake.connected = false;
      try {
        const e = await failure(connector().send({ to: GROUP, text: 'x' }, 'k5'));
        assert.deepEqual([e.permanent, e.disconnected], [false, true]);
        assert.match(e.message, /not connected/);
      } finally {
        fake.connected = true;
      }
      assert.equal(fake.sent.length, before);
    });

    test('a wrong API key, an unknown session and a refused destination are permanent', async () => {
      const key = await failure(connector({ token: 'wrong' }).send({ to: GROUP, text: 'x' }, 'k6'));
      assert.deepEqual([key.permanent, key.status], [true, 401]);
      assert.match(key.message, /API key/);
      const session = await failure(connector({ instance: 'other' }).send({ to: GROUP, text: 'x' }, 'k7'));
      assert.deepEqual([session.permanent, session.status], [true, 404]);
      const contact = '5511987654321@s.whatsapp.net';
      fake.failTo(contact, 400);
      const refused = await failure(connector().send({ to: contact, text: 'x' }, 'k8'));
      assert.deepEqual([refused.permanent, refused.status], [true, 400]);
      assert.ok(!refused.message.includes('5511987654321'), refused.message);
      if (flavor === 'evolution') assert.match(refused.message, /not on WhatsApp/);
    });

    test('a channel without URL, session or key is refused before any request', () => {
      for (const over of [{ url: null }, { instance: null }, { token: null }]) {
        assert.throws(
          () => connector(over),
          (e: unknown) => e instanceof ConnectorError && e.permanent,
        );
      }
    });

    test('operator side: the webhook is set on the gateway, the session state read, the groups listed', async () => {
      const gateway = gatewayFor(fakeChannel(fake), 2000);
      await gateway.setWebhook('https://ops.example/inbound/chn_wa', 'oo_in_secret');
      assert.deepEqual(fake.webhook, { url: 'https://ops.example/inbound/chn_wa', secret: 'oo_in_secret' });
      assert.equal(await gateway.sessionState(), 'connected');
      fake.connected = false;
      assert.equal(await gateway.sessionState(), 'disconnected');
      fake.connected = true;
      fake.groups = [
        { id: '120363000000000001@g.us', subject: 'Ofertas Cozinha', size: 250 },
        { id: '120363000000000002@g.us', subject: 'Ofertas TV', size: 12 },
      ];
      assert.deepEqual(await gateway.groups(), [
        { address: '120363000000000001@g.us', name: 'Ofertas Cozinha', size: 250 },
        { address: '120363000000000002@g.us', name: 'Ofertas TV', size: 12 },
      ]);
      const wrong = await failure(gatewayFor(fakeChannel(fake, { token: 'wrong' }), 2000).groups());
      assert.deepEqual([wrong.permanent, wrong.status], [true, 401]);
    });
  });
}

test('waha: setting the webhook keeps the session configuration and its other webhooks', async () => {
  const fake = await startFakeWhatsApp('waha');
  try {
    const channel = fakeChannel(fake);
    const put = (config: unknown) =>
      fetch(`${fake.url}/api/sessions/${fake.session}`, {
        method: 'PUT',
        headers: { 'x-api-key': FAKE_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ config }),
      });
    await put({ metadata: { team: 'ofertas' }, webhooks: [{ url: 'https://crm.example/hook', events: ['message'] }] });
    await gatewayFor(channel).setWebhook('https://ops.example/inbound/chn_wa', 'oo_in_1');
    await gatewayFor(channel).setWebhook('https://ops.example/inbound/chn_wa', 'oo_in_2');
    const got = (await (await fetch(`${fake.url}/api/sessions/${fake.session}`, { headers: { 'x-api-key': FAKE_API_KEY } })).json()) as any;
    assert.deepEqual(got.config.metadata, { team: 'ofertas' });
    assert.deepEqual(
      got.config.webhooks.map((w: any) => [w.url, w.hmac?.key ?? null]),
      [
        ['https://crm.example/hook', null],
        ['https://ops.example/inbound/chn_wa', 'oo_in_2'],
      ],
    );
  } finally {
    await fake.close();
  }
});
